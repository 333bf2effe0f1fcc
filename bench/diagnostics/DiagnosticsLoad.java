import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The client side of the benchmark.
 *   latency <port> <name> <warmup> <calls>   sequential ?internal=true calls; prints p50/p99/max in ms
 *   heapdump <port> <pod pid> [query]        one heap dump download, read and discarded with a 64 KiB buffer, while
 *                                            the pod's RSS is sampled every 20 ms; prints time, size, RSS growth
 */
public final class DiagnosticsLoad {
    private static final String ID = "0123456789abcdef01234567";
    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    public static void main(String[] args) throws Exception {
        switch (args[0]) {
            case "latency" -> latency(Integer.parseInt(args[1]), args[2], Integer.parseInt(args[3]), Integer.parseInt(args[4]));
            case "heapdump" -> heapDump(Integer.parseInt(args[1]), Long.parseLong(args[2]), args.length > 3 ? args[3] : "");
            default -> throw new IllegalArgumentException(args[0]);
        }
    }

    private static HttpRequest request(int port, String pathAndQuery) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/platform/diagnostics/" + pathAndQuery))
                .header("Authorization", ID).timeout(Duration.ofMinutes(5)).build();
    }

    private static void latency(int port, String name, int warmup, int calls) throws Exception {
        HttpRequest request = request(port, name + "?internal=true");
        long bytes = 0;
        for (int i = 0; i < warmup; i++) {
            check(CLIENT.send(request, HttpResponse.BodyHandlers.ofByteArray()));
        }
        long[] nanos = new long[calls];
        double[] server = new double[calls];
        for (int i = 0; i < calls; i++) {
            long t0 = System.nanoTime();
            HttpResponse<byte[]> response = CLIENT.send(request, HttpResponse.BodyHandlers.ofByteArray());
            nanos[i] = System.nanoTime() - t0;
            check(response);
            bytes = response.body().length;
            server[i] = responseTime(response.body());
        }
        Arrays.sort(nanos);
        Arrays.sort(server);
        int p99 = (int) Math.ceil(calls * 0.99) - 1;
        System.out.printf(Locale.ROOT, "%-10s calls=%d client p50=%.2f ms p99=%.2f ms max=%.2f ms | pod responseTime "
                        + "p50=%.2f ms p99=%.2f ms | body=%d bytes%n", name, calls, nanos[calls / 2] / 1e6, nanos[p99] / 1e6,
                nanos[calls - 1] / 1e6, server[calls / 2], server[p99], bytes);
    }

    // The pod's own figure: the last field of a single-pod answer.
    private static double responseTime(byte[] body) {
        String tail = new String(body, Math.max(0, body.length - 64), Math.min(64, body.length), java.nio.charset.StandardCharsets.UTF_8);
        int at = tail.lastIndexOf("\"responseTime\":");
        return at < 0 ? Double.NaN : Double.parseDouble(tail.substring(at + 15, tail.length() - 1));
    }

    private static void check(HttpResponse<?> response) {
        if (response.statusCode() != 200) {
            throw new IllegalStateException("status " + response.statusCode());
        }
    }

    private static void heapDump(int port, long pid, String query) throws Exception {
        Path status = Path.of("/proc", String.valueOf(pid), "status");
        long before = rssKiB(status);
        AtomicLong peak = new AtomicLong(before);
        AtomicBoolean done = new AtomicBoolean();
        Thread sampler = Thread.ofPlatform().daemon().start(() -> {
            while (!done.get()) {
                try {
                    peak.accumulateAndGet(rssKiB(status), Math::max);
                    Thread.sleep(20);
                } catch (Exception e) {
                    return;
                }
            }
        });
        long t0 = System.nanoTime();
        HttpResponse<InputStream> response = CLIENT.send(request(port, "heapdump" + query), HttpResponse.BodyHandlers.ofInputStream());
        long firstByte = System.nanoTime() - t0;
        check(response);
        long size = 0;
        byte[] buffer = new byte[64 * 1024];
        try (InputStream in = response.body()) {
            for (int n; (n = in.read(buffer)) >= 0; ) {
                size += n;
            }
        }
        long total = System.nanoTime() - t0;
        done.set(true);
        sampler.join();
        System.out.printf(Locale.ROOT, "heapdump%s size=%d MiB headers-after=%.2f s total=%.2f s rss-before=%d MiB "
                        + "rss-peak=%d MiB rss-growth=%d MiB%n", query, size >> 20, firstByte / 1e9, total / 1e9,
                before >> 10, peak.get() >> 10, (peak.get() - before) >> 10);
    }

    private static long rssKiB(Path status) throws Exception {
        for (String line : Files.readAllLines(status)) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        throw new IllegalStateException("no VmRSS");
    }
}
