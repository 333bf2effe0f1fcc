import com.sun.net.httpserver.HttpServer;
import io.pylon.core.config.Settings;
import io.pylon.core.server.Pod;
import io.pylon.core.server.PodServer;
import io.pylon.worker.WorkerModule;

import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Benchmark only (bench/metrics/run.sh): a Worker pod in this JVM with 50 routes spread over 10 upstreams (JDK HTTP
 * servers on the benchmark address), a few requests on every route so that every per-route and per-upstream meter
 * exists, then 200 timed scrapes in each format. Prints the median and 95th percentile time, the process's CPU
 * time per scrape and the size.
 *   java ScrapeCost <address> <work-dir>
 */
public class ScrapeCost {
    private static final int ROUTES = 50;
    private static final int UPSTREAMS = 10;
    private static final int SCRAPES = 200;

    public static void main(String[] args) throws Exception {
        String addr = args[0];
        Path work = Files.createDirectories(Path.of(args[1]));
        List<HttpServer> upstreams = new ArrayList<>();
        byte[] ok = "ok\n".getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < UPSTREAMS; i++) {
            HttpServer server = HttpServer.create(new InetSocketAddress(addr, 0), 0);
            server.createContext("/", exchange -> {
                exchange.sendResponseHeaders(200, ok.length);
                exchange.getResponseBody().write(ok);
                exchange.close();
            });
            server.start();
            upstreams.add(server);
        }
        StringBuilder routes = new StringBuilder("routes:\n");
        for (int r = 0; r < ROUTES; r++) {
            routes.append("  - name: route-").append(r).append("\n    pathPrefix: /api/r").append(r)
                    .append("\n    upstreams: [http://").append(addr).append(':')
                    .append(upstreams.get(r % UPSTREAMS).getAddress().getPort()).append("]\n");
        }
        Path routesFile = work.resolve("routes.yaml");
        Files.writeString(routesFile, routes);
        Map<String, String> settings = new HashMap<>(Map.of("pylon.server.bind", addr, "pylon.server.port", "0",
                "pylon.pod.name", "worker-scrape", "pylon.data.dir", work.resolve("data").toString(),
                "pylon.worker.routes-file", routesFile.toString()));
        Pod pod = PodServer.start(new WorkerModule(), Settings.of(settings));
        HttpClient client = HttpClient.newHttpClient();
        String base = "http://" + addr + ":" + pod.port();
        try {
            for (int r = 0; r < ROUTES; r++) {
                for (int n = 0; n < 3; n++) {
                    get(client, base + "/api/r" + r + "/x", null);
                }
            }
            get(client, base + "/platform/management/health", null);
            System.out.println("| format | scrapes | median ms | p95 ms | CPU ms per scrape (pod + client) | bytes |");
            System.out.println("|---|---:|---:|---:|---:|---:|");
            measure(client, base, "Prometheus text", null);
            measure(client, base, "OpenMetrics", "application/openmetrics-text;version=1.0.0");
        } finally {
            pod.stop();
            upstreams.forEach(server -> server.stop(0));
        }
    }

    private static void measure(HttpClient client, String base, String format, String accept) throws Exception {
        for (int i = 0; i < 1000; i++) { // warm-up: until the JIT has compiled the scrape path
            get(client, base + "/platform/management/metrics", accept);
        }
        long[] micros = new long[SCRAPES];
        int bytes = 0;
        var os = (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        long cpu0 = os.getProcessCpuTime();
        for (int i = 0; i < SCRAPES; i++) {
            long t0 = System.nanoTime();
            bytes = get(client, base + "/platform/management/metrics", accept).length;
            micros[i] = (System.nanoTime() - t0) / 1000;
        }
        // CPU of the whole process (pod and client) per scrape: an upper bound that other load does not inflate
        double cpuMillis = (os.getProcessCpuTime() - cpu0) / 1e6 / SCRAPES;
        Arrays.sort(micros);
        System.out.printf("| %s | %d | %.2f | %.2f | %.2f | %d (%.1f KiB) |%n", format, SCRAPES,
                micros[SCRAPES / 2] / 1000.0, micros[SCRAPES * 95 / 100] / 1000.0, cpuMillis, bytes, bytes / 1024.0);
    }

    private static byte[] get(HttpClient client, String url, String accept) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url));
        if (accept != null) {
            request.header("Accept", accept);
        }
        HttpResponse<byte[]> res = client.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
        if (res.statusCode() != 200) {
            throw new IllegalStateException(url + " answered " + res.statusCode());
        }
        return res.body();
    }
}
