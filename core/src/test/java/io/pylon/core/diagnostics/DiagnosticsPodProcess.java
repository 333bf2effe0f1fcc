package io.pylon.core.diagnostics;

import io.pylon.core.server.Pod;
import io.pylon.core.testing.FakeModule;
import io.pylon.core.testing.TestPods;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A diagnostics pod in its own OS process (its own heap size, its own environment variables), on a free port of
 * 127.0.0.1; it exits with the test JVM. Closing it stops the process.
 */
final class DiagnosticsPodProcess implements AutoCloseable {
    private static final String READY = "READY ";

    private final Process process;
    private final String baseUrl;
    private final List<String> log = new java.util.concurrent.CopyOnWriteArrayList<>();

    private DiagnosticsPodProcess(Process process, String baseUrl) {
        this.process = process;
        this.baseUrl = baseUrl;
    }

    /**
     * @param maxHeap     the child's -Xmx, e.g. 64m
     * @param environment environment variables added to the child's
     * @param settings    pod settings (key=value) on top of the test defaults
     */
    static DiagnosticsPodProcess start(String maxHeap, Map<String, String> environment, Map<String, String> settings)
            throws IOException {
        String java = ProcessHandle.current().info().command().orElseThrow();
        List<String> command = new ArrayList<>(List.of(java, "-Xmx" + maxHeap, "-XX:TieredStopAtLevel=1",
                "-cp", System.getProperty("java.class.path"), Main.class.getName(),
                "pylon.parent.pid=" + ProcessHandle.current().pid()));
        settings.forEach((key, value) -> command.add(key + "=" + value));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().putAll(environment);
        Process process = builder.start();
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        StringBuilder seen = new StringBuilder();
        for (String line = out.readLine(); line != null; line = out.readLine()) {
            if (line.startsWith(READY)) {
                DiagnosticsPodProcess pod = new DiagnosticsPodProcess(process, line.substring(READY.length()));
                Thread.ofPlatform().daemon().start(() -> pod.keep(out));
                return pod;
            }
            seen.append(line).append('\n');
        }
        process.destroyForcibly();
        throw new IOException("the pod process ended before it was ready:\n" + seen);
    }

    // Keeps the child's output (the last 10,000 lines) and keeps it from filling the pipe.
    private void keep(BufferedReader out) {
        try {
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                log.add(line);
                if (log.size() > 10_000) {
                    log.removeFirst();
                }
            }
        } catch (IOException ignored) {
            // the process ended
        }
    }

    /** What the pod process wrote to its standard output and error since it was ready. */
    List<String> log() {
        return log;
    }

    String baseUrl() {
        return baseUrl;
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }

    /** The child process: a FakeModule worker serving diagnostics, settings from key=value arguments. */
    public static final class Main {
        public static void main(String[] args) {
            Map<String, String> settings = new HashMap<>();
            for (String arg : args) {
                int eq = arg.indexOf('=');
                settings.put(arg.substring(0, eq), arg.substring(eq + 1));
            }
            Pod pod = TestPods.start(new FakeModule("worker").servingDiagnostics(), "worker-process", settings);
            System.out.println(READY + TestPods.baseUrl(pod));
            System.out.flush();
        }
    }
}
