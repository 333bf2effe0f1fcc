import io.pylon.cache.CacheModule;
import io.pylon.cache.client.GridClient;
import io.pylon.core.config.Settings;
import io.pylon.core.server.Pod;
import io.pylon.core.server.PodServer;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.LongAdder;

/**
 * The data grid benchmark, run by bench/cache/run.sh. Two real Cache pods (Hazelcast members on 127.6.9.1 and 127.6.9.2)
 * in this JVM.
 *   datagrid: 10 maps of 100k entries; latency of GET /platform/diagnostics/datagrid?internal=true over HTTP.
 *   counters: two Worker-side GridClients increment one counter, then 1,000 counters, for a fixed time each.
 */
public final class GridBench {
    static final String ENV_ID = "0123456789abcdef0123bench";

    public static void main(String[] args) throws Exception {
        String mode = args.length > 0 ? args[0] : "all";
        List<String> addresses = List.of("127.6.9.1", "127.6.9.2");
        List<Integer> ports = new ArrayList<>();
        for (String address : addresses) {
            ports.add(freePort(address));
        }
        String members = addresses.get(0) + ":" + ports.get(0) + "," + addresses.get(1) + ":" + ports.get(1);
        List<Pod> pods = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            Map<String, String> s = new HashMap<>();
            s.put("pylon.server.bind", addresses.get(i));
            s.put("pylon.server.port", "0");
            s.put("pylon.pod.name", "bench-cache-" + i);
            s.put("pylon.environment.name", "bench");
            s.put("pylon.environment.id", ENV_ID);
            s.put("pylon.data.dir", Files.createTempDirectory("pylon-bench").toString());
            s.put("pylon.grid.port", String.valueOf(ports.get(i)));
            s.put("pylon.grid.members", members);
            pods.add(PodServer.start(new CacheModule(), Settings.of(s)));
        }
        try {
            if (mode.equals("all") || mode.equals("counters")) {
                counters(members);
            }
            if (mode.equals("all") || mode.equals("datagrid")) {
                datagrid(members, pods.get(0));
            }
        } finally {
            pods.forEach(Pod::stop);
        }
        System.exit(0);
    }

    static GridClient client(String members) throws InterruptedException {
        GridClient client = GridClient.start(Settings.of(Map.of("pylon.environment.name", "bench",
                "pylon.environment.id", ENV_ID, "pylon.cache.addresses", members)));
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (!"CONNECTED".equals(client.state().name()) && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        return client;
    }

    static void counters(String members) throws Exception {
        GridClient a = client(members);
        GridClient b = client(members);
        int inFlight = Integer.getInteger("bench.inflight", 64);
        int threads = Integer.getInteger("bench.threads", 32);
        Duration length = Duration.ofSeconds(Integer.getInteger("bench.seconds", 10));
        for (int keys : new int[] {1, 1000}) {
            run(a, b, keys, inFlight, Duration.ofSeconds(3));
            double perSecond = run(a, b, keys, inFlight, length);
            System.out.printf("counters async keys=%d clients=2 inFlightPerClient=%d: %.0f increments/s%n", keys, inFlight, perSecond);
            perSecond = blocking(a, b, keys, threads, length);
            System.out.printf("counters blocking keys=%d clients=2 virtualThreadsPerClient=%d: %.0f increments/s%n", keys, threads, perSecond);
        }
        a.close();
        b.close();
    }

    /** Each client keeps {@code inFlight} asynchronous increments outstanding (like that many concurrent requests). */
    static double run(GridClient a, GridClient b, int keys, int inFlight, Duration length) throws Exception {
        LongAdder done = new LongAdder();
        LongAdder failed = new LongAdder();
        long end = System.nanoTime() + length.toNanos();
        List<Thread> threads = new ArrayList<>();
        long t0 = System.nanoTime();
        for (GridClient client : List.of(a, b)) {
            threads.add(Thread.ofPlatform().start(() -> {
                Semaphore permits = new Semaphore(inFlight);
                int i = 0;
                while (System.nanoTime() < end) {
                    permits.acquireUninterruptibly();
                    String key = "rate:" + (i++ % keys);
                    client.counters().incrementAsync(key, Duration.ofMinutes(1)).whenComplete((v, e) -> {
                        if (e == null) {
                            done.increment();
                        } else {
                            failed.increment();
                        }
                        permits.release();
                    });
                }
                permits.acquireUninterruptibly(inFlight);
            }));
        }
        for (Thread t : threads) {
            t.join();
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        if (failed.sum() > 0) {
            System.out.println("  (" + failed.sum() + " increments failed)");
        }
        return done.sum() / seconds;
    }

    /** Each client serves {@code threads} virtual threads calling the blocking increment (a Worker's request threads). */
    static double blocking(GridClient a, GridClient b, int keys, int threads, Duration length) throws Exception {
        LongAdder done = new LongAdder();
        long end = System.nanoTime() + length.toNanos();
        List<Thread> started = new ArrayList<>();
        long t0 = System.nanoTime();
        for (GridClient client : List.of(a, b)) {
            for (int t = 0; t < threads; t++) {
                int offset = t;
                started.add(Thread.ofVirtual().start(() -> {
                    int i = offset;
                    while (System.nanoTime() < end) {
                        client.counters().increment("rate:" + (i++ % keys), Duration.ofMinutes(1));
                        done.increment();
                    }
                }));
            }
        }
        for (Thread t : started) {
            t.join();
        }
        return done.sum() / ((System.nanoTime() - t0) / 1e9);
    }

    static void datagrid(String members, Pod pod) throws Exception {
        GridClient client = client(members);
        byte[] value = new byte[64];
        var hz = com.hazelcast.client.HazelcastClient.getAllHazelcastClients().iterator().next();
        for (int m = 0; m < 10; m++) {
            var map = hz.<Integer, byte[]>getMap("bench-map-" + m);
            Map<Integer, byte[]> batch = new HashMap<>();
            for (int i = 0; i < 100_000; i++) {
                batch.put(i, value);
                if (batch.size() == 5_000) {
                    map.putAll(batch);
                    batch.clear();
                }
            }
            for (int i = 0; i < 100; i++) {
                map.get(i);
            }
        }
        client.close();
        HttpClient http = HttpClient.newHttpClient();
        String base = "http://" + pod.identity().podIp() + ":" + pod.port() + "/platform";
        HttpRequest datagrid = HttpRequest.newBuilder(URI.create(base + "/diagnostics/datagrid?internal=true"))
                .header("Authorization", ENV_ID).GET().build();
        HttpRequest version = HttpRequest.newBuilder(URI.create(base + "/management/version")).GET().build();
        int n = Integer.getInteger("bench.requests", 500);
        long[] grid = new long[n];
        long[] baseline = new long[n];
        long[] direct = new long[n];
        var section = pod.module() instanceof CacheModule ? sectionOf(pod) : null;
        int bytes = 0;
        for (int i = -50; i < n; i++) {
            long t0 = System.nanoTime();
            HttpResponse<String> response = http.send(datagrid, HttpResponse.BodyHandlers.ofString());
            long t1 = System.nanoTime();
            if (response.statusCode() != 200 || !response.body().contains("\"bench-map-9\"")) {
                throw new IllegalStateException("unexpected answer " + response.statusCode());
            }
            http.send(version, HttpResponse.BodyHandlers.ofString());
            long t2 = System.nanoTime();
            section.collect();
            long t3 = System.nanoTime();
            if (i >= 0) {
                grid[i] = t1 - t0;
                baseline[i] = t2 - t1;
                direct[i] = t3 - t2;
            }
            bytes = response.body().length();
        }
        System.out.printf("datagrid maps=10 entries/map=100000 members=2 requests=%d (%d bytes):%n", n, bytes);
        report("  GET diagnostics/datagrid?internal=true", grid);
        report("  GET management/version (HTTP baseline)", baseline);
        report("  DatagridSection.collect() in process  ", direct);
    }

    static io.pylon.core.diagnostics.DiagnosticSection sectionOf(Pod pod) throws Exception {
        var field = CacheModule.class.getDeclaredField("datagrid");
        field.setAccessible(true);
        return (io.pylon.core.diagnostics.DiagnosticSection) field.get(pod.module());
    }

    static void report(String what, long[] nanos) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        System.out.printf("%s p50 %.2f ms, p90 %.2f ms, p99 %.2f ms, max %.2f ms%n", what,
                sorted[n / 2] / 1e6, sorted[n * 9 / 10] / 1e6, sorted[n * 99 / 100] / 1e6, sorted[n - 1] / 1e6);
    }

    static int freePort(String address) throws Exception {
        try (ServerSocket socket = new ServerSocket()) {
            socket.bind(new InetSocketAddress(InetAddress.getByName(address), 0));
            return socket.getLocalPort();
        }
    }
}
