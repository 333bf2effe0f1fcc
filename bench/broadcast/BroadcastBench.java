import io.pylon.core.config.Settings;
import io.pylon.core.server.Pod;
import io.pylon.core.server.PodServer;

import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Broadcast benchmark, the aggregator side: `java -cp <classes>:<core classpath> BroadcastBench latency|heap <firstPort>
 * <peers> [iterations]`. The peers (BroadcastPeers.java) run in another JVM on 127.0.0.1 (or -Dbench.host) ports firstPort...
 * latency: `jvm` p50/p99 of one single-pod call, of a broadcast over 1, 4, 16 and 64 pods (this JVM's aggregator
 * pod plus N-1 peers) and of a sequential loop over the same pods, then a 16-pod broadcast with one more pod that
 * accepts connections and never answers. heap: a `threaddump` broadcast over this JVM's pod plus every peer, with
 * the heap in use sampled every millisecond; the answer is read and dropped as it streams in.
 */
public final class BroadcastBench {
    private static final String AUTH = "0123456789abcdef01234567";
    private static final String HOST = BroadcastPeers.HOST;
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static final List<Pod> PODS = new ArrayList<>();
    private static final java.util.Set<String> HEAP_POOLS = ManagementFactory.getMemoryPoolMXBeans().stream()
            .filter(pool -> pool.getType() == java.lang.management.MemoryType.HEAP)
            .map(java.lang.management.MemoryPoolMXBean::getName).collect(java.util.stream.Collectors.toSet());

    public static void main(String[] args) throws Exception {
        String mode = args[0];
        int firstPort = Integer.parseInt(args[1]);
        int peers = Integer.parseInt(args[2]);
        int iterations = args.length > 3 ? Integer.parseInt(args[3]) : 200;
        try {
            if (mode.equals("latency")) {
                latency(firstPort, peers, iterations);
            } else if (mode.equals("compare")) {
                compare(firstPort, peers, iterations);
            } else {
                heap(firstPort, peers);
            }
        } finally {
            PODS.forEach(Pod::stop);
        }
    }

    private static void latency(int firstPort, int peers, int iterations) throws Exception {
        String single = "http://" + HOST + ":" + firstPort + "/platform/diagnostics/jvm?internal=true";
        double[] base = measure(iterations, () -> get(single));
        System.out.printf(Locale.ROOT, "single-pod jvm (internal=true)     p50 %7.2f ms  p99 %7.2f ms%n", p(base, 50), p(base, 99));
        for (int n : new int[] {1, 4, 16, 64}) {
            if (n - 1 > peers) {
                break;
            }
            Pod aggregator = aggregator("agg-" + n, peerList(firstPort, n - 1), Map.of());
            String url = "http://" + HOST + ":" + aggregator.port() + "/platform/diagnostics/jvm";
            check(get(url), n);
            int runs = Math.max(20, iterations / Math.max(1, n / 4));
            long[] cpu0 = cpuNanos();
            double[] broadcast = measure(runs, () -> get(url));
            long[] cpu1 = cpuNanos();
            List<String> members = new ArrayList<>();
            members.add("http://" + HOST + ":" + aggregator.port());
            for (int i = 0; i < n - 1; i++) {
                members.add("http://" + HOST + ":" + (firstPort + i));
            }
            double[] loop = measure(runs, () -> {
                for (String member : members) {
                    get(member + "/platform/diagnostics/jvm?internal=true");
                }
                return null;
            });
            System.out.printf(Locale.ROOT, "broadcast jvm, %2d pods             p50 %7.2f ms  p99 %7.2f ms  (%.2fx single p50)"
                            + "   sequential loop p50 %7.2f ms  p99 %7.2f ms%n",
                    n, p(broadcast, 50), p(broadcast, 99), p(broadcast, 50) / p(base, 50), p(loop, 50), p(loop, 99));
            int measured = runs + Math.max(10, runs / 5);
            System.out.printf(Locale.ROOT, "    CPU per broadcast: aggregator JVM %.1f ms, peers' JVM %.1f ms%n",
                    (cpu1[0] - cpu0[0]) / 1e6 / measured, (cpu1[1] - cpu0[1]) / 1e6 / measured);
        }
        try (ServerSocket hung = new ServerSocket(0, 50, InetAddress.getByName(HOST))) {
            List<Socket> accepted = new ArrayList<>();
            Thread.ofVirtual().start(() -> {
                while (!hung.isClosed()) {
                    try {
                        accepted.add(hung.accept());
                    } catch (Exception e) {
                        return;
                    }
                }
            });
            String list = peerList(firstPort, 15) + ",zz-hung=http://" + HOST + ":" + hung.getLocalPort();
            Pod aggregator = aggregator("agg-hung", list, Map.of("pylon.broadcast.pod-timeout", "1s"));
            String url = "http://" + HOST + ":" + aggregator.port() + "/platform/diagnostics/jvm";
            String body = get(url);
            if (!body.contains("\"status\":504")) {
                throw new IllegalStateException("the hung pod is not listed with 504: " + body.substring(0, 300));
            }
            double[] withHung = measure(10, () -> get(url), 1);
            System.out.printf(Locale.ROOT, "broadcast jvm, 16 pods + 1 hung (pod-timeout 1s)  p50 %7.2f ms  max %7.2f ms%n",
                    p(withHung, 50), p(withHung, 100));
        }
    }

    /**
     * compare: `compare` against a broadcast of `all` over the same pods (this JVM's aggregator pod plus {@code peers}
     * peers), in interleaved rounds of {@code iterations} calls each, so that the machine's noise falls on both alike;
     * prints each round's medians and the median over the rounds.
     */
    private static void compare(int firstPort, int peers, int iterations) throws Exception {
        int pods = peers + 1;
        // generous limits: the first answers of cold pods on a loaded machine must not fail the run
        Pod aggregator = aggregator("agg-compare", peerList(firstPort, peers), Map.of("pylon.broadcast.deadline", "120s",
                "pylon.broadcast.slow-pod-timeout", "100s", "pylon.broadcast.pod-timeout", "100s"));
        String base = "http://" + HOST + ":" + aggregator.port() + "/platform/diagnostics/";
        for (int i = 0; i < 5; i++) {
            get(base + "all");
            get(base + "compare");
        }
        check(get(base + "all"), pods);
        check(get(base + "compare"), pods);
        int allBytes = get(base + "all").length();
        int compareBytes = get(base + "compare").length();
        System.out.printf(Locale.ROOT, "%d pods: answer of all %d bytes, of compare %d bytes%n", pods, allBytes, compareBytes);
        int rounds = Integer.parseInt(System.getProperty("bench.rounds", "7"));
        double[] allMedians = new double[rounds];
        double[] compareMedians = new double[rounds];
        double[] ratios = new double[rounds];
        for (int round = 0; round < rounds; round++) {
            long[] cpu0 = cpuNanos();
            double[] all = measure(iterations, () -> get(base + "all"), 3);
            long[] cpu1 = cpuNanos();
            double[] compare = measure(iterations, () -> get(base + "compare"), 3);
            long[] cpu2 = cpuNanos();
            allMedians[round] = p(all, 50);
            compareMedians[round] = p(compare, 50);
            ratios[round] = compareMedians[round] / allMedians[round];
            System.out.printf(Locale.ROOT, "round %d: all p50 %7.2f ms (CPU %5.1f + %5.1f ms)   compare p50 %7.2f ms "
                            + "(CPU %5.1f + %5.1f ms)   compare/all %.2f%n", round + 1, allMedians[round],
                    cpuPer(cpu0, cpu1, 0, iterations), cpuPer(cpu0, cpu1, 1, iterations), compareMedians[round],
                    cpuPer(cpu1, cpu2, 0, iterations), cpuPer(cpu1, cpu2, 1, iterations), ratios[round]);
        }
        Arrays.sort(allMedians);
        Arrays.sort(compareMedians);
        Arrays.sort(ratios);
        System.out.printf(Locale.ROOT, "median of %d rounds (%d calls each), %d pods: all %.2f ms, compare %.2f ms, "
                + "compare/all %.2f%n", rounds, iterations, pods, allMedians[rounds / 2], compareMedians[rounds / 2],
                ratios[rounds / 2]);
    }

    // CPU ms per call of the aggregator JVM (which = 0, with the client) or the peers' JVM (1), warm-up calls included.
    private static double cpuPer(long[] from, long[] to, int which, int iterations) {
        return from[which] < 0 || to[which] < 0 ? -1 : (to[which] - from[which]) / 1e6 / (iterations + 3);
    }

    private static void heap(int firstPort, int peers) throws Exception {
        // Generous limits: this measures memory, and 64 thread dumps built at once on a shared 2-core machine take long.
        Pod aggregator = aggregator("agg-heap", peerList(firstPort, peers), Map.of("pylon.broadcast.deadline", "120s",
                "pylon.broadcast.slow-pod-timeout", "100s"));
        String url = "http://" + HOST + ":" + aggregator.port() + "/platform/diagnostics/threaddump";
        get("http://" + HOST + ":" + aggregator.port() + "/platform/diagnostics/jvm");
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        long baseline = memory.getHeapMemoryUsage().getUsed();
        AtomicLong peak = new AtomicLong(baseline);
        AtomicBoolean sampling = new AtomicBoolean(true);
        Thread sampler = Thread.ofPlatform().daemon().start(() -> {
            while (sampling.get()) {
                peak.accumulateAndGet(memory.getHeapMemoryUsage().getUsed(), Math::max);
                try {
                    Thread.sleep(1);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        AtomicLong afterGc = new AtomicLong();
        AtomicLong collections = new AtomicLong();
        List<Runnable> unlisten = new ArrayList<>();
        for (var gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (gc instanceof javax.management.NotificationEmitter emitter) {
                javax.management.NotificationListener listener = (notification, handback) -> {
                    var info = com.sun.management.GarbageCollectionNotificationInfo.from(
                            (javax.management.openmbean.CompositeData) notification.getUserData());
                    long used = info.getGcInfo().getMemoryUsageAfterGc().entrySet().stream()
                            .filter(e -> HEAP_POOLS.contains(e.getKey()))
                            .mapToLong(e -> e.getValue().getUsed()).sum();
                    afterGc.accumulateAndGet(used, Math::max);
                    collections.incrementAndGet();
                };
                emitter.addNotificationListener(listener, null, null);
                unlisten.add(() -> {
                    try {
                        emitter.removeNotificationListener(listener);
                    } catch (javax.management.ListenerNotFoundException e) {
                        throw new IllegalStateException(e);
                    }
                });
            }
        }
        long t0 = System.nanoTime();
        HttpResponse<InputStream> response = CLIENT.send(request(url), HttpResponse.BodyHandlers.ofInputStream());
        long bytes = 0;
        byte[] buffer = new byte[64 * 1024];
        byte[] tail = new byte[0];
        try (InputStream in = response.body()) {
            int n;
            while ((n = in.read(buffer)) > 0) {
                bytes += n;
                tail = Arrays.copyOfRange(buffer, Math.max(0, n - 512), n);
            }
        }
        long elapsed = (System.nanoTime() - t0) / 1_000_000;
        sampling.set(false);
        sampler.join();
        unlisten.forEach(Runnable::run);
        String end = new String(tail, StandardCharsets.UTF_8);
        int pods = peers + 1;
        if (!end.contains("\"succeeded\":" + pods)) {
            throw new IllegalStateException("not every pod answered: ..." + end);
        }
        System.out.printf(Locale.ROOT, "threaddump broadcast over %d pods: %.1f MiB received (%.2f MiB per pod) in %d ms%n",
                pods, bytes / 1048576.0, bytes / 1048576.0 / pods, elapsed);
        System.out.printf(Locale.ROOT, "aggregator heap: max %d MiB (-Xmx), in use before %.1f MiB, peak during %.1f MiB, "
                        + "growth %.1f MiB%n", Runtime.getRuntime().maxMemory() / 1048576, baseline / 1048576.0,
                peak.get() / 1048576.0, (peak.get() - baseline) / 1048576.0);
        System.out.printf(Locale.ROOT, "aggregator heap after each of %d collections during the broadcast: at most %.1f MiB, "
                + "growth %.1f MiB over the %.1f MiB before%n", collections.get(), afterGc.get() / 1048576.0,
                (afterGc.get() - baseline) / 1048576.0, baseline / 1048576.0);
    }

    /** CPU time used so far by this JVM and by the peers' JVM (its pid in PEERS_PID; -1 when unknown). */
    private static long[] cpuNanos() throws Exception {
        long own = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
        String pid = System.getenv("PEERS_PID");
        long peers = -1;
        if (pid != null) {
            String stat = Files.readString(java.nio.file.Path.of("/proc", pid, "stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
            peers = ticks * 1_000_000_000L / 100;
        }
        return new long[] {own, peers};
    }

    private static String peerList(int firstPort, int count) {
        List<String> pairs = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            pairs.add(String.format(Locale.ROOT, "peer-%02d=http://" + HOST + ":%d", i, firstPort + i));
        }
        return String.join(",", pairs);
    }

    private static Pod aggregator(String name, String peers, Map<String, String> more) throws Exception {
        Map<String, String> settings = new HashMap<>(Map.of(
                "pylon.server.bind", HOST,
                "pylon.server.port", "0",
                "pylon.pod.name", name,
                "pylon.environment.id", AUTH,
                "pylon.broadcast.max-in-flight", "64",
                "pylon.data.dir", Files.createTempDirectory("pylon-bench-" + name).toString()));
        if (peers.isEmpty()) {
            settings.put("pylon.discovery.mode", "self");
        } else {
            settings.put("pylon.discovery.static", peers);
        }
        settings.putAll(more);
        Pod pod = PodServer.start(new BenchModule(), Settings.of(settings));
        PODS.add(pod);
        return pod;
    }

    private static void check(String body, int pods) {
        if (!body.contains("\"succeeded\":" + pods + ",")) {
            throw new IllegalStateException("expected " + pods + " answers: " + body.substring(Math.max(0, body.length() - 300)));
        }
    }

    private interface Call {
        Object run() throws Exception;
    }

    private static double[] measure(int iterations, Call call) throws Exception {
        return measure(iterations, call, Math.max(10, iterations / 5));
    }

    private static double[] measure(int iterations, Call call, int warmup) throws Exception {
        for (int i = 0; i < warmup; i++) {
            call.run();
        }
        double[] ms = new double[iterations];
        for (int i = 0; i < iterations; i++) {
            long t0 = System.nanoTime();
            call.run();
            ms[i] = (System.nanoTime() - t0) / 1e6;
        }
        Arrays.sort(ms);
        return ms;
    }

    private static double p(double[] sorted, int percentile) {
        int index = (int) Math.ceil(percentile / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
    }

    private static HttpRequest request(String url) {
        return HttpRequest.newBuilder(URI.create(url)).header("Authorization", AUTH).timeout(Duration.ofSeconds(60)).GET().build();
    }

    private static String get(String url) throws Exception {
        HttpResponse<String> response = CLIENT.send(request(url), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IllegalStateException(url + " answered " + response.statusCode() + ": " + response.body());
        }
        return response.body();
    }
}
