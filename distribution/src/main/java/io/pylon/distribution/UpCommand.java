package io.pylon.distribution;

import org.jspecify.annotations.Nullable;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.helidon.webclient.api.HttpClientResponse;
import io.helidon.webclient.api.WebClient;
import io.pylon.core.config.Settings;
import io.pylon.core.http.Json;
import io.pylon.core.http.PodPaths;
import io.pylon.core.pod.CoreSettings;
import io.pylon.integration.store.IntegrationDatabase;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The whole local platform as separate JVM processes on loopback: every child's log lines prefixed with its pod
 * name, a child that dies reported, every child stopped (SIGTERM, then forcibly) on Ctrl-C or SIGTERM. Each child
 * also watches this process and exits when it is gone, so not even a SIGKILL leaves a JVM behind.
 *
 * <p>Threading: the command's thread starts the children; one platform thread per child copies its output; a shutdown
 * hook stops everything on Ctrl-C or SIGTERM. The list of children is guarded by its own monitor, output lines by the
 * output stream's monitor (so lines of two pods never interleave), and the volatile {@code stopping} flag keeps a
 * child stopped on purpose from being reported as dead.
 */
@Command(name = "up", description = "Runs the whole local platform: Manager, Portal, two Integration, two Worker and two Cache pods.")
final class UpCommand implements Callable<Integer> {

    @Option(names = "--state-dir", paramLabel = "DIR", description = "Where cluster.json, logs and pod data go (default .pylon).")
    Path stateDir = Path.of(".pylon");

    @Option(names = "--start-timeout", paramLabel = "SECONDS", description = "How long every pod may take to become ready (default 90).")
    int startTimeoutSeconds = 90;

    @Option(names = "--first-address", paramLabel = "ADDR",
            description = "Loopback address of the first pod (the Manager); the others take the next six (default 127.0.0.1).")
    String firstAddress = LocalPlan.DEFAULT_FIRST_ADDRESS;

    private final PrintStream out = System.out;
    private final List<Child> children = new ArrayList<>();
    private volatile boolean stopping;
    private volatile @Nullable SampleUpstream sample;
    private @Nullable PlatformLock lock;

    /** A started pod; {@code stopped} completes when it says it stopped serving, or when its process ends. */
    record Child(LocalPod pod, Process process, boolean recording, CompletableFuture<Void> stopped) {
    }

    /** How long stopping pods may take; a pod writing its AOT cache on its first stop takes longer (JDK 25, 340 MB recorded). */
    static final long STOP_SECONDS = 25;
    static final long STOP_RECORDING_SECONDS = 300;

    /**
     * What a JVM prints while it writes its AOT cache at exit: where the recording went, the child JVM it launches (with
     * the whole class path, some 40 lines) and the result. {@code pylon up} says it in one line instead.
     */
    static final java.util.regex.Pattern AOT_NOTICES = java.util.regex.Pattern.compile("^(Picked up JAVA_TOOL_OPTIONS: "
            + "|Temporary AOTConfiguration recorded: |Launching child process |Reading AOTConfiguration "
            + "|AOTCache creation is complete: |Removed temporary AOT configuration file )");

    @Override
    public Integer call() throws Exception {
        try {
            PodHeap.options("manager", System.getenv()); // an invalid PYLON_POD_HEAP_MAX stops us before any pod starts
        } catch (io.pylon.core.config.InvalidSettingException e) {
            System.err.println("pylon: " + e.getMessage());
            return 2;
        }
        String badAddress = LocalPlan.checkFirstAddress(firstAddress);
        if (badAddress != null) {
            System.err.println("pylon: " + badAddress);
            return 2;
        }
        OwnerOnlyFiles.folder(stateDir);
        lock = PlatformLock.tryAcquire(stateDir);
        if (lock == null) {
            System.err.println(PlatformLock.alreadyRunning(stateDir));
            return 1;
        }
        Path cluster = stateDir.resolve("cluster.json");
        Files.deleteIfExists(cluster);
        List<LocalPod> pods = LocalPlan.create(firstAddress);
        PodPaths paths = paths(Settings.fromProcess(Map.of()));
        LocalEnvironment environment = LocalEnvironment.load(stateDir);
        Runtime.getRuntime().addShutdownHook(Thread.ofPlatform().name("pylon-up-stop").unstarted(this::stopAll));

        // before the pods: a Worker that applies its last-known-good proxies from disk finds the sample listening
        sample = SampleUpstream.start(firstAddress);
        int width = pods.stream().mapToInt(p -> p.name().length()).max().orElse(8);
        for (LocalPod pod : pods) {
            PodProcess.Started started = PodProcess.start(pod, pods, environment, paths, stateDir);
            Process process = started.process();
            Child child = new Child(pod, process, started.recording(), new CompletableFuture<>());
            synchronized (children) {
                children.add(child);
            }
            pipe(process.getInputStream(), String.format("%-" + width + "s | ", pod.name()), pod.name(), child.stopped());
            process.onExit().thenRun(() -> {
                child.stopped().complete(null);
                if (!stopping) {
                    say(pod.name() + " exited with code " + process.exitValue() + " (pid " + process.pid() + ")");
                }
            });
        }
        if (!awaitReady(pods, paths)) {
            say("not every pod became ready within " + startTimeoutSeconds + " s; stopping");
            stopAll();
            return 1;
        }
        String sampleResult = SampleProxy.ensure(urlOf(pods, "manager"), environment, sample.url());
        say(sampleResult);
        say(LocalPortal.ensure(urlOf(pods, "manager"), environment));
        writeCluster(cluster, environment);
        printSummary(cluster, paths);
        new CountDownLatch(1).await();
        return lock.held() ? 0 : 1;
    }

    private boolean awaitReady(List<LocalPod> pods, PodPaths paths) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(startTimeoutSeconds);
        WebClient client = WebClient.builder().connectTimeout(Duration.ofSeconds(1)).readTimeout(Duration.ofSeconds(3))
                .followRedirects(false).build();
        for (LocalPod pod : pods) {
            String url = readinessUrl(pod, paths);
            while (true) {
                if (isReady(client, url)) {
                    break;
                }
                if (!processOf(pod).isAlive() || System.nanoTime() > deadline) {
                    return false;
                }
                Thread.sleep(100);
            }
        }
        return true;
    }

    /** The paths every pod is given, under pylon.path.segment (PYLON_PATH_SEGMENT) as this process sees it. */
    static PodPaths paths(Settings settings) {
        return PodPaths.of(settings.get(CoreSettings.PATH_SEGMENT));
    }

    /** Where {@code pylon up} waits for a pod: its readiness probe under the segment every pod is given. */
    static String readinessUrl(LocalPod pod, PodPaths paths) {
        return pod.url() + paths.ready();
    }

    private static boolean isReady(WebClient client, String url) {
        try (HttpClientResponse response = client.get(url).request()) {
            return response.status().code() == 200;
        } catch (RuntimeException e) {
            return false;
        }
    }

    private Process processOf(LocalPod pod) {
        synchronized (children) {
            return children.stream().filter(c -> c.pod().equals(pod)).findFirst().orElseThrow().process();
        }
    }

    private void writeCluster(Path file, LocalEnvironment environment) throws IOException {
        ObjectNode root = Json.MAPPER.createObjectNode();
        ObjectNode modules = root.putObject("modules");
        Map<String, ArrayNode> byModule = new LinkedHashMap<>();
        synchronized (children) {
            for (Child child : children) {
                ArrayNode list = byModule.computeIfAbsent(child.pod().module(),
                        m -> modules.putObject(m).putArray("pods"));
                ObjectNode entry = list.addObject();
                entry.put("name", child.pod().name());
                entry.put("url", child.pod().url());
                entry.put("pid", child.process().pid());
                if (child.pod().gridPort() != 0) {
                    entry.put("grid", child.pod().gridAddress());
                }
            }
        }
        environment.describe(root);
        // the admin password and the environment ID: owner-only, like the files they come from
        OwnerOnlyFiles.write(file, Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsBytes(root));
    }

    private void printSummary(Path cluster, PodPaths paths) {
        StringBuilder text = new StringBuilder("\nPylon is up. Pods:\n");
        synchronized (children) {
            int width = children.stream().mapToInt(c -> c.pod().name().length()).max().orElse(12);
            for (Child child : children) {
                text.append(String.format("  %-12s %-" + width + "s %-24s (pid %d%s)%n", child.pod().module(), child.pod().name(),
                        child.pod().url(), child.process().pid(),
                        child.pod().gridPort() == 0 ? "" : ", data grid " + child.pod().gridAddress()));
            }
        }
        synchronized (children) {
            children.stream().filter(c -> c.pod().module().equals("worker")).findFirst().ifPresent(worker -> text
                    .append("Sample API through a Worker: curl ").append(worker.pod().url()).append(SampleProxy.PREFIX)
                    .append("/hello   (proxy '").append(SampleProxy.NAME).append("', upstream ")
                    .append(sample == null ? "-" : sample.url()).append(")\n")
                    .append("Webhook receiver for flows: POST to ").append(worker.pod().url()).append(SampleProxy.PREFIX)
                    .append(WebhookInbox.PREFIX).append("<name>, GET the same URL lists what it received\n"));
        }
        text.append("Health: <url>").append(paths.health()).append("   Version: <url>").append(paths.version()).append('\n');
        text.append("Manager admin: ").append(LocalEnvironment.ADMIN).append(", password in ")
                .append(stateDir.resolve("admin-password").toAbsolutePath()).append(" and cluster.json\n");
        synchronized (children) {
            children.stream().filter(c -> c.pod().module().equals("portal")).findFirst().ifPresent(portal -> text
                    .append("Portal: ").append(portal.pod().url()).append("/   developer ")
                    .append(LocalEnvironment.DEVELOPER).append(", password in ")
                    .append(stateDir.resolve("developer-password").toAbsolutePath()).append(" and cluster.json\n")
                    .append("  on the Portal: '").append(KeyedSampleProxy.NAME).append("' (").append(KeyedSampleProxy.PREFIX)
                    .append(" through a Worker, with an API key of an application subscribed to it)\n"));
        }
        text.append("The same facts: ").append(cluster.toAbsolutePath()).append("\nCtrl-C stops everything.\n");
        synchronized (out) {
            out.print(text);
            out.flush();
        }
    }

    private static String urlOf(List<LocalPod> pods, String module) {
        return pods.stream().filter(p -> p.module().equals(module)).findFirst().map(LocalPod::url).orElseThrow();
    }

    private void stopAll() {
        if (stopping) {
            return;
        }
        stopping = true;
        if (sample != null) {
            sample.close();
        }
        List<Child> all;
        synchronized (children) {
            all = List.copyOf(children);
        }
        if (all.isEmpty()) {
            return;
        }
        say("stopping " + all.size() + " pods");
        List<String> recording = all.stream().filter(Child::recording).map(c -> c.pod().name()).toList();
        if (!recording.isEmpty()) {
            say("writing the start-up cache of " + String.join(", ", recording) + " (once; the next start uses it and is faster)");
        }
        OptionalLong servingIntegration = SharedH2Server.ofThisMachine().servingPid(
                IntegrationDatabase.h2SharedLockFile(PodProcess.sharedIntegrationDir(stateDir)),
                all.stream().map(c -> c.process().pid()).toList());
        stopInOrder(stopOrder(all, servingIntegration), recording.isEmpty() ? STOP_SECONDS : STOP_RECORDING_SECONDS);
        say("stopped");
    }

    /**
     * Clients before what they use, so that no pod spends its last seconds retrying a peer that left first (and logs
     * it): the Workers and the Portal; each Integration pod alone, the one serving the H2 database they share last (a
     * pod stopped after it would be taking the file over as its stop interrupts it); the Manager; each Cache pod alone,
     * so the data grid's members leave one by one.
     */
    static List<List<Child>> stopOrder(List<Child> all, OptionalLong servingIntegration) {
        List<List<Child>> tiers = new ArrayList<>();
        tiers.add(all.stream().filter(c -> c.pod().module().equals("worker") || c.pod().module().equals("portal")).toList());
        reversedPods(all, "integration").stream()
                .sorted(Comparator.comparing(c -> servingIntegration.equals(OptionalLong.of(c.process().pid()))))
                .forEach(c -> tiers.add(List.of(c)));
        tiers.add(all.stream().filter(c -> c.pod().module().equals("manager")).toList());
        reversedPods(all, "cache").forEach(c -> tiers.add(List.of(c)));
        List<Child> rest = all.stream().filter(c -> tiers.stream().noneMatch(t -> t.contains(c))).toList();
        tiers.add(rest);
        tiers.removeIf(List::isEmpty);
        return tiers;
    }

    private static List<Child> reversedPods(List<Child> all, String module) {
        return all.stream().filter(c -> c.pod().module().equals(module)).toList().reversed();
    }

    /**
     * SIGTERM to each tier in turn, the next once every pod of this one has said it stopped (its JVM may still be
     * writing its start-up cache) or ended; then waits for every process, killing those left after {@code seconds}.
     */
    static void stopInOrder(List<List<Child>> tiers, long seconds) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        for (List<Child> tier : tiers) {
            tier.forEach(c -> c.process().toHandle().destroy());
            for (Child child : tier) {
                try {
                    child.stopped().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                } catch (ExecutionException | TimeoutException e) {
                    // past the deadline: what is left is killed below
                }
            }
        }
        awaitExit(tiers.stream().flatMap(List::stream).map(Child::process).toList(), deadline);
    }

    /**
     * SIGTERM to every process, then waits up to {@code seconds} for all of them together before killing those left.
     * Through the process handle: Process.destroy() also closes our end of the child's output, and a pod that writes
     * to it afterwards dies of the broken pipe, in the middle of writing its AOT cache and before its last log lines.
     */
    static void terminate(List<Process> processes, long seconds) {
        processes.forEach(p -> p.toHandle().destroy());
        awaitExit(processes, System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds));
    }

    private static void awaitExit(List<Process> processes, long deadline) {
        for (Process process : processes) {
            try {
                long left = deadline - System.nanoTime();
                if (left <= 0 || !process.waitFor(left, TimeUnit.NANOSECONDS)) {
                    process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                process.destroyForcibly();
            }
        }
    }

    /**
     * Copies a pod's output on a platform thread. A read from a process pipe holds its carrier while it blocks, and
     * once the virtual-thread scheduler has retired its idle carriers (30 s without work) a few such readers leave
     * none: from then on no virtual thread of this process runs, the sample upstream's included.
     */
    Thread pipe(InputStream stream, String prefix, String name, CompletableFuture<Void> stopped) {
        String stoppedLine = "Pod " + name + " stopped after finishing ";
        return Thread.ofPlatform().daemon().name("pylon-up-output-" + name).start(() -> {
            try (BufferedReader reader = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
                String line;
                while ((line = reader.readLine()) != null) {
                    if (AOT_NOTICES.matcher(line).find()) {
                        continue;
                    }
                    synchronized (out) {
                        out.println(prefix + line);
                    }
                    if (line.contains(stoppedLine)) {
                        stopped.complete(null);
                    }
                }
            } catch (IOException e) {
                // the child closed its output: it is exiting, and onExit reports that
            }
        });
    }

    private void say(String message) {
        synchronized (out) {
            out.println("pylon | " + message);
            out.flush();
        }
    }
}
