import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.pylon.core.config.Settings;
import io.pylon.core.server.Pod;
import io.pylon.core.server.PodServer;
import io.pylon.gateway.model.ProxyParser;
import io.pylon.gateway.model.RenderedBundle;
import io.pylon.worker.WorkerModule;
import io.pylon.worker.config.GatewayConfig;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Control plane figures: deploy latency (call -> every pod reported) with 2 real Worker pods and 32 simulated
 * long-pollers; the Worker's route table swap (validate + build) with 1,000 proxies; the Manager's heap with 500
 * long-pollers parked. The Manager runs as its own JVM (started by run.sh), so its heap is its own.
 * Usage: ControlPlaneBench <managerUrl> <managerPid> <adminPassword> <environmentId>
 */
public class ControlPlaneBench {
    static final ObjectMapper JSON = new ObjectMapper();
    static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    static String manager;
    static String token;
    static String environmentId;

    public static void main(String[] args) throws Exception {
        manager = args[0];
        long managerPid = Long.parseLong(args[1]);
        environmentId = args[3];
        token = token(args[2]);

        swap();
        // before the 500 pollers: they count as the environment's pods for 90 s after their last poll
        deployLatency();

        long idleHeap = heapUsedKb(managerPid);
        AtomicBoolean stop = new AtomicBoolean();
        List<Thread> pollers = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            int n = i;
            pollers.add(Thread.ofVirtual().start(() -> simulatedPoller("sim-" + n, stop)));
        }
        Thread.sleep(5000);
        long busyHeap = heapUsedKb(managerPid);
        System.out.printf("manager heap after GC: idle %d KiB, with 500 long-pollers parked %d KiB, delta %d KiB%n",
                idleHeap, busyHeap, busyHeap - idleHeap);
        stop.set(true);
        pollers.forEach(Thread::interrupt);
        Thread.sleep(1000);
        System.exit(0);
    }

    static void swap() throws Exception {
        swap(false);
        swap(true);
    }

    /**
     * 120 bundles of 1,000 proxies applied in turn (the first 20 are warm-up): either one proxy changes from one
     * bundle to the next (a deploy of one API; the unchanged ones are taken as they are), or every proxy does (each
     * is validated again: the worst case).
     */
    static void swap(boolean everyProxyChanges) throws Exception {
        GatewayConfig config = new GatewayConfig(new ProxyParser("platform", Duration.ofSeconds(2),
                Duration.ofSeconds(30)), table -> { });
        List<Long> micros = new ArrayList<>();
        int size = 0;
        for (int i = 0; i < 120; i++) {
            List<JsonNode> proxies = new ArrayList<>();
            for (int p = 0; p < 1000; p++) {
                String revision = everyProxyChanges || p == i % 1000 ? ",\"description\":\"revision " + i + "\"" : "";
                proxies.add(JSON.readTree("{\"name\":\"p" + p + "\",\"pathPrefix\":\"/p" + p + "\",\"methods\":[\"GET\"],"
                        + "\"upstreams\":[\"http://127.0.0.1:9\"],\"requestHeaders\":{\"add\":{\"X-Env\":\"bench\"}}"
                        + revision + "}"));
            }
            RenderedBundle bundle = RenderedBundle.render(i + 1, proxies);
            size = bundle.json().length;
            long start = System.nanoTime();
            if (config.apply(bundle.json(), bundle.sha256(), (long) i + 1, "manager") == null) {
                throw new IllegalStateException(config.rejection().reason());
            }
            long took = (System.nanoTime() - start) / 1000;
            if (i >= 20) {
                micros.add(took); // after warm-up
            }
        }
        Collections.sort(micros);
        System.out.printf("route table swap, 1,000 proxies, %s (hash check + parse + validate + build, %d KiB "
                        + "bundle): p50 %.1f ms, p99 %.1f ms%n", everyProxyChanges ? "every proxy changed"
                        : "one proxy changed", size / 1024,
                micros.get(micros.size() / 2) / 1000.0, micros.get(micros.size() * 99 / 100) / 1000.0);
    }

    static void deployLatency() throws Exception {
        Map<String, String> settings = new HashMap<>();
        settings.put("pylon.server.bind", "127.0.43.1");
        settings.put("pylon.server.port", "0");
        settings.put("pylon.environment.id", environmentId);
        settings.put("pylon.environment.name", "bench");
        settings.put("pylon.shutdown.grace", "1s");
        settings.put("pylon.worker.config-source", "manager");
        settings.put("pylon.worker.manager-url", manager);
        List<Pod> workers = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            Map<String, String> own = new HashMap<>(settings);
            own.put("pylon.pod.name", "bench-worker-" + i);
            own.put("pylon.data.dir", Files.createTempDirectory("pylon-bench-w").toString());
            workers.add(PodServer.start(new WorkerModule(), Settings.of(own)));
        }
        AtomicBoolean stop = new AtomicBoolean();
        for (int i = 0; i < 32; i++) {
            int n = i;
            Thread.ofVirtual().start(() -> simulatedPoller("lp-" + n, stop));
        }
        send("POST", "/apiops/proxies", "{\"name\":\"bench\",\"pathPrefix\":\"/bench\",\"upstreams\":[\"http://127.0.0.1:9\"]}");
        Thread.sleep(3000);
        List<Long> latencies = new ArrayList<>();
        int failed = 0;
        int rounds = 60;
        for (int i = 0; i < rounds; i++) {
            String prefix = "/bench" + (i % 2);
            send("PUT", "/apiops/proxies/bench", "{\"name\":\"bench\",\"pathPrefix\":\"" + prefix
                    + "\",\"upstreams\":[\"http://127.0.0.1:9\"]}");
            long start = System.nanoTime();
            HttpResponse<String> deployed = send("POST", "/apiops/environments/bench/deployments",
                    "{\"proxies\":[\"bench\"],\"wait\":\"10s\"}");
            long ms = (System.nanoTime() - start) / 1_000_000;
            JsonNode result = JSON.readTree(deployed.body()).path("deploymentResult");
            if (!result.path("success").asBoolean() || result.path("detailList").size() < 34) {
                failed++;
            }
            latencies.add(ms);
            Thread.sleep(200);
        }
        Collections.sort(latencies);
        System.out.printf("deploy latency (call until 2 Worker pods + 32 long-pollers reported), %d deploys: p50 %d ms, "
                        + "p99 %d ms, max %d ms, not all applied: %d%n", rounds, latencies.get(rounds / 2),
                latencies.get(rounds * 99 / 100), latencies.get(rounds - 1), failed);
        stop.set(true);
        workers.forEach(Pod::stop);
    }

    /** A long-poller that "applies" whatever it receives and reports it, as a Worker does, without serving. */
    static void simulatedPoller(String name, AtomicBoolean stop) {
        String hash = null;
        String version = null;
        while (!stop.get()) {
            try {
                HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(manager + "/apiops/gateway/bundle?wait=25s"))
                        .timeout(Duration.ofSeconds(40))
                        .header("X-Pylon-Environment-Id", environmentId).header("X-Pylon-Pod", name)
                        .header("X-Pylon-Config-Source", hash == null ? "none" : "manager");
                if (hash != null) {
                    request.header("If-None-Match", "\"" + hash + "\"").header("X-Pylon-Applied-Hash", hash)
                            .header("X-Pylon-Applied-Version", version);
                }
                HttpResponse<byte[]> response = HTTP.send(request.GET().build(), HttpResponse.BodyHandlers.ofByteArray());
                if (response.statusCode() == 200) {
                    hash = response.headers().firstValue("ETag").orElseThrow().replace("\"", "");
                    version = response.headers().firstValue("X-Pylon-Bundle-Version").orElseThrow();
                }
            } catch (InterruptedException e) {
                return;
            } catch (Exception e) {
                if (stop.get()) {
                    return;
                }
            }
        }
    }

    static long heapUsedKb(long pid) throws Exception {
        run("jcmd", Long.toString(pid), "GC.run");
        Thread.sleep(500);
        String info = run("jcmd", Long.toString(pid), "GC.heap_info");
        Matcher used = Pattern.compile("used (\\d+)K").matcher(info);
        if (!used.find()) {
            throw new IllegalStateException("no heap figure in: " + info);
        }
        return Long.parseLong(used.group(1));
    }

    static String run(String... command) throws Exception {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        process.waitFor();
        return out;
    }

    static String token(String password) throws Exception {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(manager + "/apiops/auth/token"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("grant_type=client_credentials&client_id=admin&client_secret="
                        + URLEncoder.encode(password, StandardCharsets.UTF_8))).build(), HttpResponse.BodyHandlers.ofString());
        return JSON.readTree(response.body()).path("access_token").asText();
    }

    static HttpResponse<String> send(String method, String path, String json) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(manager + path)).timeout(Duration.ofSeconds(60))
                .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                .method(method, HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
