package io.pylon.distribution.durability;

import io.pylon.distribution.PylonCli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Manager pod as a separate OS process ({@code pylon run manager}) on a given data directory, so that a test can
 * kill it with SIGKILL. Its output is collected by one virtual thread; {@link #output()} may be read from any thread.
 */
final class ManagerProcess implements AutoCloseable {
    static final String ADMIN_PASSWORD = "durability-admin-password";
    private static final Pattern LISTENING = Pattern.compile("listening on (http://127\\.0\\.0\\.1:\\d+)/");

    private final Process process;
    private final StringBuffer output = new StringBuffer();
    private final String baseUrl;

    private ManagerProcess(Path dataDir) throws IOException, InterruptedException {
        String java = ProcessHandle.current().info().command().orElse("java");
        ProcessBuilder builder = new ProcessBuilder(java, "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-cp", System.getProperty("java.class.path"), PylonCli.class.getName(),
                "run", "manager", "--pod-name", "manager-kill9", "--bind", "127.0.0.1", "--port", "0")
                .redirectErrorStream(true);
        builder.environment().put("PYLON_DATA_DIR", dataDir.toString());
        builder.environment().put("PYLON_MANAGER_ADMIN_PASSWORD", ADMIN_PASSWORD);
        // cheap password hashes: the test is about what reaches the disk, and more writes per second find more loss
        builder.environment().put("PYLON_MANAGER_PASSWORD_ARGON2_MEMORY", "1024");
        builder.environment().put("PYLON_MANAGER_PASSWORD_ARGON2_ITERATIONS", "1");
        builder.environment().put("PYLON_PARENT_PID", String.valueOf(ProcessHandle.current().pid()));
        process = builder.start();
        Thread.ofPlatform().daemon().start(this::collectOutput);
        baseUrl = awaitListening();
    }

    static ManagerProcess start(Path dataDir) throws IOException, InterruptedException {
        return new ManagerProcess(dataDir);
    }

    String baseUrl() {
        return baseUrl;
    }

    String output() {
        return output.toString();
    }

    /** SIGKILL (what Process.destroyForcibly sends on Linux), then waits until the process is gone. */
    void killNine() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(20, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the Manager process outlived SIGKILL");
        }
    }

    private String awaitListening() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline && process.isAlive()) {
            Matcher matcher = LISTENING.matcher(output);
            if (matcher.find()) {
                return matcher.group(1);
            }
            Thread.sleep(50);
        }
        process.destroyForcibly();
        throw new IllegalStateException("the Manager did not start; its output:\n" + output);
    }

    private void collectOutput() {
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                output.append(line).append('\n');
            }
        } catch (IOException ignored) {
            // the process ended
        }
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            killNine();
        }
    }
}
