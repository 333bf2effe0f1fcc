import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import io.pylon.core.config.Settings;
import io.pylon.core.server.Pod;
import io.pylon.core.server.PodServer;
import io.pylon.manager.ManagerModule;
import io.pylon.core.testing.TestPostgres;
import io.pylon.worker.WorkerModule;

import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Two Manager replicas on one PostgreSQL (each its own pod in this JVM), two Worker pods long-polling replica B, and
 * a small upstream, all on 127.0.43.x. (1) A deploy made on replica A: the deploy call's answer (A sees both pods'
 * reports, written through B) and the moment both Workers serve the new path, 30 deploys. (2) 1,000 proxies deployed;
 * wrk on one Worker while 20 deploys change the proxy it calls, beside a wrk run of the same length without deploys
 * just before it (after a 10 s warm-up run).
 * Usage: ReplicasAndTrafficBench
 */
public class ReplicasAndTrafficBench {
    static final ObjectMapper JSON = new ObjectMapper();
    static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    static final String PASSWORD = "bench-Passw0rd-1234";
    static final String ID = "0123456789abcdef0123cafe";
    static String token;

    public static void main(String[] args) throws Exception {
        HttpServer upstream = HttpServer.create(new InetSocketAddress("127.0.43.9", 0), 512);
        upstream.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        upstream.createContext("/", exchange -> {
            byte[] body = "ok".getBytes(StandardCharsets.UTF_8);
            exchange.getRequestBody().readAllBytes();
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        upstream.start();
        String upstreamUrl = "http://127.0.43.9:" + upstream.getAddress().getPort();

        TestPostgres postgres = TestPostgres.start();
        String db = postgres.createDatabase("bench_replicas");
        Pod a = manager("bench-manager-a", "127.0.43.2", db);
        Pod b = manager("bench-manager-b", "127.0.43.3", db);
        String urlA = "http://127.0.43.2:" + a.port();
        String urlB = "http://127.0.43.3:" + b.port();
        token = token(urlA);
        List<Pod> workers = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            workers.add(worker("bench-worker-" + i, "127.0.43." + (4 + i), urlB));
        }
        try {
            replicaLatency(urlA, workers, upstreamUrl);
            trafficDuringDeploys(urlA, workers.getFirst(), upstreamUrl);
        } finally {
            workers.forEach(Pod::stop);
            a.stop();
            b.stop();
            postgres.close();
            upstream.stop(0);
        }
        System.exit(0);
    }

    static void replicaLatency(String urlA, List<Pod> workers, String upstream) throws Exception {
        send(urlA, "POST", "/apiops/proxies", proxy("moving", "/r0", upstream, null));
        send(urlA, "POST", "/apiops/environments/bench/deployments", "{\"proxies\":[\"moving\"],\"wait\":\"10s\"}");
        List<Long> answered = new ArrayList<>();
        List<Long> served = new ArrayList<>();
        int incomplete = 0;
        int rounds = 30;
        for (int i = 1; i <= rounds; i++) {
            String prefix = "/r" + (i % 2);
            send(urlA, "PUT", "/apiops/proxies/moving", proxy("moving", prefix, upstream, null));
            long start = System.nanoTime();
            Thread deploy = Thread.ofVirtual().start(() -> {
                try {
                    HttpResponse<String> r = send(urlA, "POST", "/apiops/environments/bench/deployments",
                            "{\"proxies\":[\"moving\"],\"wait\":\"10s\"}");
                    JsonNode result = JSON.readTree(r.body()).path("deploymentResult");
                    synchronized (answered) {
                        answered.add(result.path("success").asBoolean() ? (System.nanoTime() - start) / 1_000_000 : -1);
                    }
                } catch (Exception e) {
                    synchronized (answered) {
                        answered.add(-1L);
                    }
                }
            });
            long deadline = start + TimeUnit.SECONDS.toNanos(10);
            boolean all = false;
            while (!all && System.nanoTime() < deadline) {
                all = true;
                for (Pod worker : workers) {
                    all &= status("http://127.0.43." + workerHost(worker) + ":" + worker.port() + prefix + "/x") == 200;
                }
                if (!all) {
                    Thread.sleep(5);
                }
            }
            if (all) {
                served.add((System.nanoTime() - start) / 1_000_000);
            } else {
                incomplete++;
            }
            deploy.join();
            Thread.sleep(300);
        }
        long failedAnswers = answered.stream().filter(ms -> ms < 0).count();
        List<Long> ok = new ArrayList<>(answered.stream().filter(ms -> ms >= 0).toList());
        Collections.sort(ok);
        Collections.sort(served);
        System.out.printf("deploy on replica A, 2 Workers polling replica B, %d deploys: both Workers serve it p50 %d ms, "
                        + "p99 %d ms, max %d ms (not within 10 s: %d); the deploy call answered success p50 %d ms, "
                        + "p99 %d ms (not success: %d)%n", rounds, pct(served, 50), pct(served, 99),
                served.isEmpty() ? -1 : served.getLast(), incomplete, pct(ok, 50), pct(ok, 99), failedAnswers);
    }

    static void trafficDuringDeploys(String urlA, Pod worker, String upstream) throws Exception {
        Semaphore parallel = new Semaphore(8);
        List<Thread> creating = new ArrayList<>();
        StringBuilder names = new StringBuilder();
        for (int i = 0; i < 1000; i++) {
            String name = "p" + i;
            names.append(i == 0 ? "" : ",").append('"').append(name).append('"');
            parallel.acquire();
            creating.add(Thread.ofVirtual().start(() -> {
                try {
                    send(urlA, "POST", "/apiops/proxies", proxy(name, "/" + name, upstream, null));
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                } finally {
                    parallel.release();
                }
            }));
        }
        for (Thread t : creating) {
            t.join();
        }
        HttpResponse<String> all = send(urlA, "POST", "/apiops/environments/bench/deployments",
                "{\"proxies\":[" + names + "],\"wait\":\"30s\"}");
        System.out.println("1,000 proxies deployed: " + JSON.readTree(all.body()).path("deploymentResult").path("success"));
        String target = "http://127.0.43." + workerHost(worker) + ":" + worker.port() + "/p500/x";
        if (status(target) != 200) {
            throw new IllegalStateException("the Worker does not serve " + target);
        }
        int seconds = 50;
        wrk(target, 10); // warm-up (JIT, connection pools): not reported
        String quiet = wrk(target, seconds);
        System.out.println("wrk without deploys: " + summary(quiet));

        Process wrk = startWrk(target, seconds);
        Thread.sleep(500);
        long start = System.nanoTime();
        int deploys = 0;
        List<Long> took = new ArrayList<>();
        for (int i = 1; i <= 20 && System.nanoTime() - start < TimeUnit.SECONDS.toNanos(seconds - 3); i++) {
            HttpResponse<String> put = send(urlA, "PUT", "/apiops/proxies/p500", proxy("p500", "/p500", upstream, "d" + i));
            if (put.statusCode() != 200) {
                throw new IllegalStateException("PUT " + put.statusCode() + ": " + put.body());
            }
            long t0 = System.nanoTime();
            HttpResponse<String> deployed = send(urlA, "POST", "/apiops/environments/bench/deployments",
                    "{\"proxies\":[\"p500\"],\"wait\":\"10s\"}");
            took.add((System.nanoTime() - t0) / 1_000_000);
            if (!JSON.readTree(deployed.body()).path("deploymentResult").path("success").asBoolean()) {
                System.out.println("deploy " + i + " not applied by every pod: " + deployed.body());
            }
            deploys++;
            Thread.sleep(500);
        }
        String during = new String(wrk.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        wrk.waitFor();
        Collections.sort(took);
        System.out.println("wrk during " + deploys + " deploys of the 1,000-proxy bundle (deploy call p50 "
                + pct(took, 50) + " ms, max " + took.getLast() + " ms): " + summary(during));
        System.out.println("--- wrk output without deploys ---\n" + quiet + "--- wrk output during deploys ---\n" + during);
    }

    static int workerHost(Pod worker) {
        return worker.identity().podName().endsWith("0") ? 4 : 5;
    }

    static String wrk(String url, int seconds) throws Exception {
        Process p = startWrk(url, seconds);
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor();
        return out;
    }

    static Process startWrk(String url, int seconds) throws Exception {
        return new ProcessBuilder("wrk", "-t2", "-c16", "-d" + seconds + "s", "--latency", url).redirectErrorStream(true).start();
    }

    static String summary(String wrk) {
        String rps = find(wrk, "Requests/sec:\\s+([\\d.]+)");
        String non2xx = find(wrk, "Non-2xx or 3xx responses: (\\d+)");
        String errors = find(wrk, "Socket errors: ([^\\n]+)");
        String total = find(wrk, "(\\d+) requests in");
        return total + " requests, " + rps + " req/s, latency p50 " + find(wrk, "50%\\s+(\\S+)") + ", p99 "
                + find(wrk, "99%\\s+(\\S+)") + ", max " + find(wrk, "Latency\\s+\\S+\\s+\\S+\\s+(\\S+)") + ", non-2xx "
                + (non2xx == null ? "0" : non2xx) + ", socket errors " + (errors == null ? "none" : errors);
    }

    static String find(String text, String regex) {
        Matcher m = Pattern.compile(regex).matcher(text);
        return m.find() ? m.group(1) : null;
    }

    static long pct(List<Long> sorted, int p) {
        if (sorted.isEmpty()) {
            return -1;
        }
        return sorted.get(Math.min(sorted.size() - 1, sorted.size() * p / 100));
    }

    static String proxy(String name, String prefix, String upstream, String marker) {
        return "{\"name\":\"" + name + "\",\"pathPrefix\":\"" + prefix + "\",\"upstreams\":[\"" + upstream + "\"]"
                + (marker == null ? "" : ",\"responseHeaders\":{\"add\":{\"X-Deploy\":\"" + marker + "\"}}") + "}";
    }

    static Pod manager(String name, String bind, String db) {
        Map<String, String> s = common(name, bind);
        s.put("pylon.manager.db.url", db);
        s.put("pylon.manager.db.user", TestPostgres.USER);
        s.put("pylon.manager.db.password", TestPostgres.PASSWORD);
        s.put("pylon.manager.admin.password", PASSWORD);
        s.put("pylon.manager.bootstrap.environment-urls", "worker=http://127.0.43.1:1,cache=http://127.0.43.1:2");
        return PodServer.start(new ManagerModule(), Settings.of(s));
    }

    static Pod worker(String name, String bind, String manager) throws Exception {
        Map<String, String> s = common(name, bind);
        s.put("pylon.worker.config-source", "manager");
        s.put("pylon.worker.manager-url", manager);
        return PodServer.start(new WorkerModule(), Settings.of(s));
    }

    static Map<String, String> common(String name, String bind) {
        Map<String, String> s = new HashMap<>();
        s.put("pylon.server.bind", bind);
        s.put("pylon.server.port", "0");
        s.put("pylon.pod.name", name);
        s.put("pylon.environment.id", ID);
        s.put("pylon.environment.name", "bench");
        s.put("pylon.shutdown.grace", "1s");
        try {
            s.put("pylon.data.dir", Files.createTempDirectory("pylon-bench-" + name).toString());
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
        return s;
    }

    static int status(String url) {
        try {
            return HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5)).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (Exception e) {
            return -1;
        }
    }

    static String token(String manager) throws Exception {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(manager + "/apiops/auth/token"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("grant_type=client_credentials&client_id=admin&client_secret="
                        + URLEncoder.encode(PASSWORD, StandardCharsets.UTF_8))).build(), HttpResponse.BodyHandlers.ofString());
        return JSON.readTree(response.body()).path("access_token").asText();
    }

    static HttpResponse<String> send(String manager, String method, String path, String json) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(manager + path)).timeout(Duration.ofSeconds(60))
                .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                .method(method, HttpRequest.BodyPublishers.ofString(json));
        if (method.equals("PUT")) {
            HttpResponse<String> current = HTTP.send(HttpRequest.newBuilder(URI.create(manager + path))
                    .header("Authorization", "Bearer " + token).build(), HttpResponse.BodyHandlers.ofString());
            request.header("If-Match", current.headers().firstValue("ETag").orElseThrow());
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
