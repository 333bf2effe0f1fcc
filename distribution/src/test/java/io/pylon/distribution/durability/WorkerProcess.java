package io.pylon.distribution.durability;

import io.pylon.distribution.PylonCli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Worker pod as a separate OS process ({@code pylon run worker}) on a routes file, its standard output and standard
 * error each in a file of its directory (files, not pipes: {@link Process#destroy}, the test's SIGTERM, closes the
 * test's end of the pipes, and what the pod writes while it stops would be lost).
 */
final class WorkerProcess implements AutoCloseable {
    private static final Pattern LISTENING = Pattern.compile("listening on http://[0-9.]+:(\\d+)/");

    final Process process;
    final int port;
    final Path out;
    final Path err;

    private WorkerProcess(Process process, int port, Path out, Path err) {
        this.process = process;
        this.port = port;
        this.out = out;
        this.err = err;
    }

    /** @param env settings as environment variables, besides the data directory and the routes file */
    static WorkerProcess start(Path dir, String address, Path routes, Map<String, String> env)
            throws IOException, InterruptedException {
        return start(dir, address, routes, env, List.of());
    }

    /** @param jvmOptions options for the pod's JVM besides a small heap and the quick compiler */
    static WorkerProcess start(Path dir, String address, Path routes, Map<String, String> env, List<String> jvmOptions)
            throws IOException, InterruptedException {
        Path out = dir.resolve("worker.out");
        Path err = dir.resolve("worker.err");
        List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"),
                "-Xmx128m", "-XX:TieredStopAtLevel=1"));
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), PylonCli.class.getName(),
                "run", "worker", "--pod-name", "worker-process", "--bind", address, "--port", "0"));
        ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
        builder.environment().put("PYLON_DATA_DIR", dir.resolve("data").toString());
        builder.environment().put("PYLON_WORKER_ROUTES_FILE", routes.toString());
        builder.environment().put("PYLON_PARENT_PID", String.valueOf(ProcessHandle.current().pid()));
        builder.environment().putAll(env);
        Process process = builder.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline && process.isAlive()) {
            Matcher matcher = LISTENING.matcher(Files.readString(out));
            if (matcher.find()) {
                return new WorkerProcess(process, Integer.parseInt(matcher.group(1)), out, err);
            }
            Thread.sleep(50);
        }
        process.destroyForcibly();
        throw new IllegalStateException("the Worker did not start; its output:\n" + Files.readString(out)
                + Files.readString(err));
    }

    /** SIGTERM, then waits for the process to end; whether it did within {@code seconds}. */
    boolean terminate(long seconds) throws InterruptedException {
        process.destroy();
        return process.waitFor(seconds, TimeUnit.SECONDS);
    }

    @Override
    public void close() {
        process.destroyForcibly();
    }
}
