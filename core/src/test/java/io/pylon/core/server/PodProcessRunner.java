package io.pylon.core.server;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Starts {@link StandalonePod} as a separate OS process (optionally under a command such as prlimit). */
final class PodProcessRunner implements AutoCloseable {
    /**
     * Not 127.0.0.1: a listener that dies frees its port, and on the busy 127.0.0.1 another process's ephemeral
     * socket may take it before the restart (seen in this suite), so the process pods get an address of their own.
     */
    static final String ADDRESS = "127.0.14.2";

    final Process process;
    final int port;
    final Path log;

    private PodProcessRunner(Process process, int port, Path log) {
        this.process = process;
        this.port = port;
        this.log = log;
    }

    static PodProcessRunner start(List<String> prefix, Map<String, String> settings) throws IOException {
        Path dir = Files.createTempDirectory("pylon-pod-process");
        Path log = dir.resolve("pod.log");
        List<String> command = new ArrayList<>(prefix);
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx128m");
        command.add("-Djava.util.logging.manager=" + PodLogManager.class.getName());
        command.add("-Dpylon.server.bind=" + ADDRESS);
        command.add("-Dpylon.server.port=0");
        command.add("-Dpylon.pod.name=process-pod");
        command.add("-Dpylon.data.dir=" + dir.resolve("data"));
        settings.forEach((key, value) -> command.add("-D" + key + "=" + value));
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(StandalonePod.class.getName());
        Process process = new ProcessBuilder(command).redirectError(log.toFile()).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        String line;
        while ((line = out.readLine()) != null) {
            if (line.startsWith("PORT ")) {
                return new PodProcessRunner(process, Integer.parseInt(line.substring(5).trim()), log);
            }
        }
        throw new IllegalStateException("the pod process ended before listening: " + Files.readString(log));
    }

    long pid() {
        return process.pid();
    }

    int openDescriptors() throws IOException {
        try (var fds = Files.list(Path.of("/proc", String.valueOf(pid()), "fd"))) {
            return (int) fds.count();
        }
    }

    /** The soft and hard descriptor limits of the process, from /proc/PID/limits. */
    long[] descriptorLimits() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc", String.valueOf(pid()), "limits"))) {
            if (line.startsWith("Max open files")) {
                String[] parts = line.substring("Max open files".length()).trim().split("\\s+");
                return new long[]{Long.parseLong(parts[0]), Long.parseLong(parts[1])};
            }
        }
        throw new IllegalStateException("no descriptor limit in /proc/" + pid() + "/limits");
    }

    String log() throws IOException {
        return Files.readString(log);
    }

    void terminate() {
        process.toHandle().destroy(); // SIGTERM on Unix
    }

    @Override
    public void close() throws Exception {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
    }
}
