package io.pylon.core.testing;

import io.pylon.core.config.Settings;
import io.pylon.core.server.Pod;
import io.pylon.core.server.PodServer;
import io.pylon.core.server.PylonModule;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * Starts real pods on loopback for tests: an ephemeral port on 127.0.0.1 (or another 127.x address), a fresh data
 * directory, a known environment ID. Shared by every module's tests through the core test-jar.
 */
public final class TestPods {
    public static final String ENVIRONMENT_ID = "0123456789abcdef01234567";

    // ports for pods started by tests: below the ephemeral range (Linux's default starts at 32768), above the benches'
    private static final int FREE_PORTS_FROM = 20000;
    private static final int DEFAULT_EPHEMERAL_START = 32768;
    private static final java.util.Set<Integer> HANDED_OUT = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private TestPods() {
    }

    /** Settings a test pod starts with; the given ones win. */
    public static Map<String, String> defaults(String podName) {
        Map<String, String> settings = new HashMap<>();
        settings.put("pylon.server.bind", "127.0.0.1");
        settings.put("pylon.server.port", "0");
        settings.put("pylon.pod.name", podName);
        settings.put("pylon.environment.name", "test");
        settings.put("pylon.environment.id", ENVIRONMENT_ID);
        settings.put("pylon.shutdown.grace", "1s");
        settings.put("pylon.health.cache-ttl", "0ms");
        // tests call heavy diagnostics back to back from one address; HeavyRateTest checks the per-minute limits
        settings.put("pylon.diagnostics.heavy-rate.per-pod", "100000");
        settings.put("pylon.diagnostics.heavy-rate.per-caller", "100000");
        try {
            settings.put("pylon.data.dir", Files.createTempDirectory("pylon-" + podName).toString());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return settings;
    }

    public static Pod start(PylonModule module, String podName, Map<String, String> settings) {
        Map<String, String> all = defaults(podName);
        all.putAll(settings);
        return PodServer.start(module, Settings.of(all));
    }

    public static Pod start(PylonModule module) {
        return start(module, module.name() + "-test", Map.of());
    }

    /**
     * A port free on 127.0.0.1 when asked, for pods that must know each other's URLs before they start. Taken below the
     * kernel's ephemeral range: a port the kernel reports free there is one it may give the next client socket of any
     * process before the pod binds it (a pod then failed to start with "Address already in use"). Never the same port
     * twice in this JVM.
     */
    public static int freePort() {
        int end = ephemeralRangeStart();
        for (int attempt = 0; attempt < 1000; attempt++) {
            int port = FREE_PORTS_FROM + java.util.concurrent.ThreadLocalRandom.current().nextInt(end - FREE_PORTS_FROM);
            if (!HANDED_OUT.add(port)) {
                continue;
            }
            try (java.net.ServerSocket socket = new java.net.ServerSocket()) {
                socket.bind(new java.net.InetSocketAddress("127.0.0.1", port), 1);
                return port;
            } catch (IOException e) {
                // in use: another one
            }
        }
        throw new IllegalStateException("no free port on 127.0.0.1 between " + FREE_PORTS_FROM + " and " + end);
    }

    private static int ephemeralRangeStart() {
        try {
            String range = Files.readString(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).trim();
            int start = Integer.parseInt(range.split("\\s+")[0]);
            return start > FREE_PORTS_FROM + 1000 ? start : DEFAULT_EPHEMERAL_START;
        } catch (IOException | RuntimeException e) {
            return DEFAULT_EPHEMERAL_START;
        }
    }

    public static String baseUrl(Pod pod) {
        return "http://" + pod.identity().podIp() + ":" + pod.port();
    }

    public static HttpClient client() {
        return CLIENT;
    }

    public static HttpResponse<String> get(Pod pod, String path, String... headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl(pod) + path)).timeout(Duration.ofSeconds(30));
        if (headers.length > 0) {
            request.headers(headers);
        }
        return send(request.GET().build());
    }

    public static HttpResponse<String> send(HttpRequest request) {
        try {
            return CLIENT.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IllegalStateException("request to " + request.uri() + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Deletes a directory tree; for @AfterEach/@AfterAll clean-up. */
    public static void deleteTree(Path dir) {
        if (dir == null || !Files.exists(dir)) {
            return;
        }
        try (var paths = Files.walk(dir)) {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // best effort
        }
    }
}
