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
    private final Map<String, Map<String, String>> environments = new LinkedHashMap<>();
    private final Map<String, Process> processes = new LinkedHashMap<>();
    /** The last lines each pod wrote (standard output and error), newest last. */
    private final Map<String, java.util.Deque<String>> output = new java.util.concurrent.ConcurrentHashMap<>();
    private static final int OUTPUT_LINES = 5000;

    /**
     * Starts one JVM per name; {@code extra} gives a pod's additional arguments ({@code --fill-mb=100}); those
     * starting with {@code -X} are JVM options, in which {@code {dataDir}} stands for the pod's data directory.
     */
    public ChildPods(List<String> names, Map<String, List<String>> extra) throws Exception {
        this(names, extra, Map.of(), ChildPod.class.getName(), List.of(), Map.of(), Map.of());
    }

    /** As above, with settings that every pod gets besides the test defaults. */
    public ChildPods(List<String> names, Map<String, List<String>> extra, Map<String, String> common) throws Exception {
        this(names, extra, Map.of(), ChildPod.class.getName(), List.of(), Map.of(), common);
    }

    /**
     * @param env         a pod's extra environment variables
     * @param mainClass   the pod's main class: {@link ChildPod}, or a module's own that calls {@link ChildPod#run}
     * @param unreachable more peer names that discovery lists at an address where nothing listens
     */
    public ChildPods(List<String> names, Map<String, List<String>> extra, Map<String, Map<String, String>> env,
                     String mainClass, List<String> unreachable) throws Exception {
        this(names, extra, env, mainClass, unreachable, Map.of(), Map.of());
    }

    /**
     * As {@link #ChildPods(List, Map)}; the pods named in {@code tmpfsDataDirMb} run with their data directory on a
     * tmpfs of that many MiB, mounted in a user and mount namespace of their own ({@code unshare}, no privilege needed
     * where the kernel allows unprivileged user namespaces; see {@link #canMountTmpfs()}): a disk that is really
     * nearly full.
     */
    public static ChildPods withTmpfsDataDirs(List<String> names, Map<String, List<String>> extra,
                                              Map<String, Integer> tmpfsDataDirMb) throws Exception {
        return new ChildPods(names, extra, Map.of(), ChildPod.class.getName(), List.of(), tmpfsDataDirMb, Map.of());
    }

    /** As {@link #withTmpfsDataDirs(List, Map, Map)}, each pod started by {@code mainClass} (a module's own child pod). */
    public static ChildPods withTmpfsDataDirs(List<String> names, Map<String, List<String>> extra,
                                              Map<String, Integer> tmpfsDataDirMb, String mainClass) throws Exception {
        return new ChildPods(names, extra, Map.of(), mainClass, List.of(), tmpfsDataDirMb, Map.of());
    }

    private ChildPods(List<String> names, Map<String, List<String>> extra, Map<String, Map<String, String>> env,
                      String mainClass, List<String> unreachable, Map<String, Integer> tmpfsDataDirMb,
                      Map<String, String> common) throws Exception {
        for (String name : names) {
            ports.put(name, TestPods.freePort());
        }
        String peers = ports.entrySet().stream().map(e -> e.getKey() + "=http://127.0.0.1:" + e.getValue())
                .collect(Collectors.joining(","));
        for (String name : unreachable) {
            peers += "," + name + "=http://127.0.0.1:" + TestPods.freePort();
        }
        String java = ProcessHandle.current().info().command().orElse("java");
        for (String name : names) {
            Map<String, String> settings = TestPods.defaults(name);
            settings.put("pylon.server.port", String.valueOf(ports.get(name)));
            settings.put("pylon.discovery.static", peers);
            settings.putAll(common);
            List<String> args = new ArrayList<>();
            settings.forEach((k, v) -> args.add(k + "=" + v));
            extra.getOrDefault(name, List.of()).stream().filter(a -> !a.startsWith("-X")).forEach(args::add);
            String dataDir = dataDirOf(args);
            List<String> command = new ArrayList<>();
            if (tmpfsDataDirMb.containsKey(name)) {
                command.addAll(tmpfsWrapper(tmpfsDataDirMb.get(name), dataDir));
            }
            command.addAll(List.of(java, "-Xmx384m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"));
            for (String arg : extra.getOrDefault(name, List.of())) {
                if (arg.startsWith("-X")) {
                    command.add(arg.replace("{dataDir}", dataDir));
                }
            }
            command.addAll(List.of("-cp", System.getProperty("java.class.path"), mainClass));
            command.addAll(args);
            commands.put(name, command);
            environments.put(name, env.getOrDefault(name, Map.of()));
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
        ProcessBuilder builder = new ProcessBuilder(commands.get(name)).redirectErrorStream(true);
        builder.environment().putAll(environments.get(name));
        Process process = builder.start();
        processes.put(name, process);
        CompletableFuture<Void> up = new CompletableFuture<>();
        Thread.ofPlatform().daemon().start(() -> {
            try (BufferedReader reader = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                java.util.Deque<String> lines = output.computeIfAbsent(name, n -> new java.util.concurrent.ConcurrentLinkedDeque<>());
                while ((line = reader.readLine()) != null) {
                    lines.addLast(line);
                    if (lines.size() > OUTPUT_LINES) {
                        lines.pollFirst();
                    }
                    if (line.startsWith("READY ")) {
                        up.complete(null);
                    }
                }
            } catch (Exception e) {
                // the process ended
            }
            List<String> seen = output(name);
            up.completeExceptionally(new IllegalStateException("pod " + name + " ended before it was ready; its last "
                    + "lines:\n" + String.join("\n", seen.subList(Math.max(0, seen.size() - 40), seen.size()))));
        });
        return up;
    }

    /** The last lines (up to 5,000) the pod wrote to its standard output and error, oldest first. */
    public List<String> output(String name) {
        return List.copyOf(output.getOrDefault(name, new java.util.ArrayDeque<>()));
    }

    /** Whether this machine lets a test mount a tmpfs in a user namespace of its own. */
    public static boolean canMountTmpfs() {
        try {
            Process probe = new ProcessBuilder(tmpfsWrapper(1, System.getProperty("java.io.tmpdir")))
                    .redirectErrorStream(true).start();
            probe.getOutputStream().close();
            probe.getInputStream().transferTo(OutputStream.nullOutputStream());
            return probe.waitFor(10, TimeUnit.SECONDS) && probe.exitValue() == 0;
        } catch (Exception e) {
            return false;
        }
    }

    // `unshare ... sh -c 'mount ... "$0" && exec "$@"' DIR command...`: without a command it only mounts (the probe)
    private static List<String> tmpfsWrapper(int megabytes, String dir) {
        return List.of("unshare", "--user", "--map-root-user", "--mount", "--", "sh", "-c",
                "mount -t tmpfs -o size=" + megabytes + "m pylon-test-tmpfs \"$0\" && if [ $# -gt 0 ]; then exec \"$@\"; fi", dir);
    }

    /** The pod's data directory: the last {@code pylon.data.dir=} argument wins, as in {@link ChildPod}. */
    private static String dataDirOf(List<String> args) {
        String dir = null;
        for (String arg : args) {
            if (arg.startsWith("pylon.data.dir=")) {
                dir = arg.substring("pylon.data.dir=".length());
            }
        }
        return dir;
    }

    public String baseUrl(String name) {
        return "http://127.0.0.1:" + ports.get(name);
    }

    public List<String> names() {
        return List.copyOf(ports.keySet());
    }

    /** The data directory of a pod (the same across restarts). */
    public String dataDir(String name) {
        return dataDirOf(commands.get(name));
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

    /** SIGTERM, and waits for the process to end; its exit code. What the pod writes while it stops is kept. */
    public int terminate(String name) throws InterruptedException {
        Process process = processes.get(name);
        process.toHandle().destroy(); // Process.destroy() would also close the pipes the pod's last lines come through
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
