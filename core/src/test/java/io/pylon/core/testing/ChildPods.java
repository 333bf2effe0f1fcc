package io.pylon.core.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * Diagnostics pods as real OS processes on 127.0.0.1 that know each other by static discovery; {@link #close()}
 * kills them. A pod can be killed and started again with the same settings (port, data directory), and given
 * commands on its standard input ({@link ChildPod}). For one test class: not thread-safe.
 */
public final class ChildPods implements AutoCloseable {
    private final Map<String, Integer> ports = new LinkedHashMap<>();
    private final Map<String, List<String>> commands = new LinkedHashMap<>();
    private final Map<String, Process> processes = new LinkedHashMap<>();

    /**
     * Starts one JVM per name; {@code extra} gives a pod's additional arguments ({@code --fill-mb=100}); those
     * starting with {@code -X} are JVM options, in which {@code {dataDir}} stands for the pod's data directory.
     */
    public ChildPods(List<String> names, Map<String, List<String>> extra) throws Exception {
        this(names, extra, Map.of());
    }

    /** As above, with settings that every pod gets besides the test defaults. */
    public ChildPods(List<String> names, Map<String, List<String>> extra, Map<String, String> common) throws Exception {
        for (String name : names) {
            ports.put(name, TestPods.freePort());
        }
        String peers = ports.entrySet().stream().map(e -> e.getKey() + "=http://127.0.0.1:" + e.getValue())
                .collect(Collectors.joining(","));
        String java = ProcessHandle.current().info().command().orElse("java");
        for (String name : names) {
            Map<String, String> settings = TestPods.defaults(name);
            List<String> command = new ArrayList<>(List.of(java, "-Xmx384m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"));
            for (String arg : extra.getOrDefault(name, List.of())) {
                if (arg.startsWith("-X")) {
                    command.add(arg.replace("{dataDir}", settings.get("pylon.data.dir")));
                }
            }
            command.addAll(List.of("-cp", System.getProperty("java.class.path"), ChildPod.class.getName()));
            settings.put("pylon.server.port", String.valueOf(ports.get(name)));
            settings.put("pylon.discovery.static", peers);
            settings.putAll(common);
            settings.forEach((k, v) -> command.add(k + "=" + v));
            extra.getOrDefault(name, List.of()).stream().filter(a -> !a.startsWith("-X")).forEach(command::add);
            commands.put(name, command);
        }
        List<CompletableFuture<Void>> ready = new ArrayList<>();
        for (String name : names) {
            ready.add(launch(name));
        }
        try {
            CompletableFuture.allOf(ready.toArray(CompletableFuture[]::new)).get(120, TimeUnit.SECONDS);
        } catch (Exception e) {
            close();
            throw e;
        }
    }

    private CompletableFuture<Void> launch(String name) throws IOException {
        Process process = new ProcessBuilder(commands.get(name)).redirectErrorStream(true).start();
        processes.put(name, process);
        CompletableFuture<Void> up = new CompletableFuture<>();
        Thread.ofVirtual().start(() -> {
            try (BufferedReader reader = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = reader.readLine()) != null) {
                    if (line.startsWith("READY ")) {
                        up.complete(null);
                    }
                }
            } catch (Exception e) {
                // the process ended
            }
            up.completeExceptionally(new IllegalStateException("pod " + name + " ended before it was ready"));
        });
        return up;
    }

    public String baseUrl(String name) {
        return "http://127.0.0.1:" + ports.get(name);
    }

    public List<String> names() {
        return List.copyOf(ports.keySet());
    }

    /** The data directory of a pod (the same across restarts). */
    public String dataDir(String name) {
        return commands.get(name).stream().filter(a -> a.startsWith("pylon.data.dir=")).findFirst().orElseThrow()
                .substring("pylon.data.dir=".length());
    }

    /** Sends one command line to a pod started with {@code --commands}. */
    public void send(String name, String line) throws IOException {
        OutputStream in = processes.get(name).getOutputStream();
        in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        in.flush();
    }

    /** SIGKILL (kill -9), and waits for the process to end. */
    public void kill(String name) throws InterruptedException {
        Process process = processes.get(name);
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
    }

    /** Waits for a pod's process to end by itself; its exit code. */
    public int awaitExit(String name) throws InterruptedException {
        Process process = processes.get(name);
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            throw new IllegalStateException("pod " + name + " did not end within 60 s");
        }
        return process.exitValue();
    }

    /** SIGTERM, and waits for the process to end; its exit code. */
    public int terminate(String name) throws InterruptedException {
        Process process = processes.get(name);
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("pod " + name + " did not end within 30 s of SIGTERM");
        }
        return process.exitValue();
    }

    /** Starts a pod again with the same arguments (port, data directory) after it ended. */
    public void restart(String name) throws Exception {
        launch(name).get(120, TimeUnit.SECONDS);
    }

    @Override
    public void close() {
        for (Process process : processes.values()) {
            process.destroyForcibly();
        }
        for (Process process : processes.values()) {
            try {
                process.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
