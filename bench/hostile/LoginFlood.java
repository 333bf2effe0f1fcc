import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A flood of wrong-password token requests against one Manager, with liveness and healthcheck probes timed meanwhile:
 * `java LoginFlood.java <host> <port> <seconds> <clients> <source prefix> <sources>`.
 * Client i sends from source address prefix.(10 + i % sources) over raw sockets (the JDK's HttpClient cannot choose
 * its local address), one connection per request, as fast as answers come. The probes (every 250 ms, 1 s timeout)
 * go through HttpClient. Prints probe p50/p99/max per path, probe failures and the flood's status counts.
 * A seventh argument {@code flood-only} sends the flood without probing (the script then probes from another process).
 */
public final class LoginFlood {
    private static final List<String> PROBES = List.of("/platform/management/health/live", "/apiops/test/healthcheck");

    public static void main(String[] args) throws Exception {
        String host = args[0];
        int port = Integer.parseInt(args[1]);
        long millis = Long.parseLong(args[2]) * 1000;
        int clients = Integer.parseInt(args[3]);
        String prefix = args[4];
        int sources = Integer.parseInt(args[5]);
        boolean probing = args.length < 7 || !args[6].equals("flood-only");
        long end = System.currentTimeMillis() + millis;

        Map<String, AtomicLong> statuses = new ConcurrentHashMap<>();
        List<Thread> flood = new ArrayList<>();
        for (int i = 0; i < clients; i++) {
            String source = prefix + "." + (10 + i % sources);
            flood.add(Thread.ofPlatform().name("flood-" + i).start(() -> {
                while (System.currentTimeMillis() < end) {
                    statuses.computeIfAbsent(tokenRequest(host, port, source), k -> new AtomicLong()).incrementAndGet();
                }
            }));
        }

        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
        Map<String, List<Double>> latencies = new TreeMap<>();
        Map<String, Integer> failures = new TreeMap<>();
        for (String path : PROBES) {
            latencies.put(path, new ArrayList<>());
            failures.put(path, 0);
        }
        while (probing && System.currentTimeMillis() < end) {
            long next = System.currentTimeMillis() + 250;
            for (String path : PROBES) {
                long start = System.nanoTime();
                boolean ok;
                try {
                    HttpResponse<String> response = client.send(HttpRequest.newBuilder(
                            URI.create("http://" + host + ":" + port + path)).timeout(Duration.ofSeconds(1)).build(),
                            HttpResponse.BodyHandlers.ofString());
                    ok = response.statusCode() == 200;
                } catch (IOException e) {
                    ok = false;
                }
                latencies.get(path).add((System.nanoTime() - start) / 1e6);
                if (!ok) {
                    failures.merge(path, 1, Integer::sum);
                }
            }
            Thread.sleep(Math.max(0, next - System.currentTimeMillis()));
        }
        for (Thread thread : flood) {
            thread.join();
        }

        for (String path : probing ? PROBES : List.<String>of()) {
            List<Double> sorted = new ArrayList<>(latencies.get(path));
            Collections.sort(sorted);
            System.out.printf("probe %-34s n=%d failed=%d p50=%.1fms p99=%.1fms max=%.1fms%n", path, sorted.size(),
                    failures.get(path), pct(sorted, 50), pct(sorted, 99), sorted.getLast());
        }
        if (clients == 0) {
            return;
        }
        long total = statuses.values().stream().mapToLong(AtomicLong::get).sum();
        System.out.printf("flood %d requests in %d s (%.0f/s) from %d clients, %d source addresses: %s%n", total,
                millis / 1000, total * 1000.0 / millis, clients, sources, new TreeMap<>(statuses));
    }

    private static double pct(List<Double> sorted, int p) {
        return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(p / 100.0 * sorted.size()) - 1));
    }

    /** One wrong-password token request on a fresh connection; the status, or "io-error". */
    private static String tokenRequest(String host, int port, String source) {
        byte[] body = "grant_type=client_credentials&client_id=admin&client_secret=wrong-password"
                .getBytes(StandardCharsets.US_ASCII);
        String head = "POST /apiops/auth/token HTTP/1.1\r\nHost: " + host + ":" + port + "\r\n"
                + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: " + body.length + "\r\n"
                + "Connection: close\r\n\r\n";
        try (Socket socket = new Socket()) {
            socket.bind(new InetSocketAddress(InetAddress.getByName(source), 0));
            socket.connect(new InetSocketAddress(host, port), 5_000);
            socket.setSoTimeout(30_000);
            OutputStream out = socket.getOutputStream();
            out.write(head.getBytes(StandardCharsets.US_ASCII));
            out.write(body);
            out.flush();
            return statusOf(socket.getInputStream());
        } catch (IOException e) {
            return "io-error";
        }
    }

    // the status line is all the flood needs: the socket is closed after it
    private static String statusOf(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        int b;
        while ((b = in.read()) >= 0 && b != '\n') {
            line.append((char) b);
        }
        String[] parts = line.toString().split(" ");
        return parts.length > 1 ? parts[1] : "io-error";
    }
}
