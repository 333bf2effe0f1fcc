package io.pylon.distribution.e2e;

import io.pylon.cache.CacheModule;
import io.pylon.core.server.Pod;
import io.pylon.core.testing.TestPods;
import io.pylon.manager.ManagerModule;
import io.pylon.worker.WorkerModule;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * A Manager plus n Worker and m Cache pods in this JVM on loopback (worker i on 127.0.10.i+1:8091, cache i on
 * 127.0.11.i+1:8090 with its grid member on 5701: static discovery and the data grid need every address up front),
 * with an environment, an admin and a viewer account created through the management API.
 */
final class LoopbackPlatform implements AutoCloseable {
    static final String ENVIRONMENT = "e2e";
    static final String ADMIN_PASSWORD = "e2e-Admin-Passw0rd";
    static final String VIEWER_PASSWORD = "e2e-Viewer-Passw0rd";

    // Own loopback addresses per pod rather than free ports on 127.0.0.1: pods picking ports one after the other race
    // with the data grid's outgoing connections, which take ephemeral ports on 127.0.0.1.
    private static final int WORKER_NET = 10;
    private static final int CACHE_NET = 11;
    private static final int WORKER_PORT = 8091;
    private static final int CACHE_PORT = 8090;
    private static final int GRID_PORT = 5701;

    final Pod manager;
    final Map<String, Pod> workers = new LinkedHashMap<>();
    final Map<String, Pod> caches = new LinkedHashMap<>();

    LoopbackPlatform(int workerCount, int cacheCount) {
        this(workerCount, cacheCount, false);
    }

    /** {@code defaultPasswordHashing}: the production Argon2 cost (benchmarks) rather than the cheapest (tests). */
    LoopbackPlatform(int workerCount, int cacheCount, boolean defaultPasswordHashing) {
        this(workerCount, cacheCount, defaultPasswordHashing, i -> address(WORKER_NET, i), i -> address(CACHE_NET, i));
    }

    /**
     * The pods on {@code 127.0.N.}: workers on {@code .11}, {@code .12}..., caches on {@code .21}... of that network
     * (a test's own addresses), every Worker with {@code workerSettings} more (a routes file).
     */
    LoopbackPlatform(int workerCount, int cacheCount, boolean defaultPasswordHashing, String addressPrefix,
                     Map<String, String> workerSettings) {
        this(workerCount, cacheCount, defaultPasswordHashing, i -> addressPrefix + (11 + i), i -> addressPrefix + (21 + i),
                workerSettings);
    }

    /**
     * The pods on the addresses given per index, e.g. a block of 127.0.N.x of one's own so that tests of several
     * checkouts on one machine do not collide.
     */
    LoopbackPlatform(int workerCount, int cacheCount, boolean defaultPasswordHashing,
                     java.util.function.IntFunction<String> workerAddress, java.util.function.IntFunction<String> cacheAddress) {
        this(workerCount, cacheCount, defaultPasswordHashing, workerAddress, cacheAddress, Map.of());
    }

    private LoopbackPlatform(int workerCount, int cacheCount, boolean defaultPasswordHashing,
                             java.util.function.IntFunction<String> workerAddress,
                             java.util.function.IntFunction<String> cacheAddress, Map<String, String> workerSettings) {
        String gridMembers = IntStream.range(0, cacheCount).mapToObj(i -> cacheAddress.apply(i) + ":" + GRID_PORT)
                .collect(Collectors.joining(","));
        String cachePeers = IntStream.range(0, cacheCount)
                .mapToObj(i -> "cache-" + i + "=http://" + cacheAddress.apply(i) + ":" + CACHE_PORT).collect(Collectors.joining(","));
        String workerPeers = IntStream.range(0, workerCount)
                .mapToObj(i -> "worker-" + i + "=http://" + workerAddress.apply(i) + ":" + WORKER_PORT).collect(Collectors.joining(","));
        try {
            Map<String, String> managerSettings = new java.util.HashMap<>(Map.of(
                    "pylon.environment.name", ENVIRONMENT,
                    "pylon.manager.admin.username", "admin",
                    "pylon.manager.admin.password", ADMIN_PASSWORD));
            if (!defaultPasswordHashing) {
                managerSettings.put("pylon.manager.password.argon2-memory", "1024");
                managerSettings.put("pylon.manager.password.argon2-iterations", "1");
            }
            manager = TestPods.start(new ManagerModule(), "manager-0", managerSettings);
            // the Cache pods join one data grid; they start in parallel because each waits for the others a while
            List<Thread> starting = new ArrayList<>();
            for (int i = 0; i < cacheCount; i++) {
                int n = i;
                starting.add(Thread.ofPlatform().start(() -> {
                    Pod pod = TestPods.start(new CacheModule(), "cache-" + n, Map.of(
                            "pylon.environment.name", ENVIRONMENT,
                            "pylon.server.bind", cacheAddress.apply(n),
                            "pylon.server.port", String.valueOf(CACHE_PORT),
                            "pylon.discovery.static", cachePeers,
                            "pylon.grid.port", String.valueOf(GRID_PORT),
                            "pylon.grid.members", gridMembers));
                    synchronized (caches) {
                        caches.put("cache-" + n, pod);
                    }
                }));
            }
            for (Thread thread : starting) {
                thread.join();
            }
            if (caches.size() != cacheCount) {
                throw new IllegalStateException("only " + caches.size() + " of " + cacheCount + " Cache pods started");
            }
            for (int i = 0; i < workerCount; i++) {
                Map<String, String> settings = new java.util.HashMap<>(workerSettings);
                settings.putAll(Map.of(
                        "pylon.environment.name", ENVIRONMENT,
                        "pylon.server.bind", workerAddress.apply(i),
                        "pylon.server.port", String.valueOf(WORKER_PORT),
                        "pylon.discovery.static", workerPeers,
                        "pylon.cache.addresses", gridMembers));
                workers.put("worker-" + i, TestPods.start(new WorkerModule(), "worker-" + i, settings));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            close();
            throw new IllegalStateException(e);
        } catch (RuntimeException e) {
            close();
            throw e;
        }
        String admin = token("admin", ADMIN_PASSWORD);
        post("/apiops/users", admin, "{\"username\":\"viewer\",\"password\":\"" + VIEWER_PASSWORD + "\",\"role\":\"viewer\"}");
        post("/apiops/environments", admin, "{\"name\":\"" + ENVIRONMENT + "\",\"type\":\"test\",\"description\":"
                + "\"Loopback platform of the browser test\",\"environmentId\":\"" + TestPods.ENVIRONMENT_ID + "\","
                + "\"urls\":{\"manager\":\"" + url(manager) + "\",\"worker\":\"" + url(workers.get("worker-0"))
                + "\",\"cache\":\"" + url(caches.get("cache-0")) + "\"}}");
    }

    String managerUrl() {
        return url(manager);
    }

    static String url(Pod pod) {
        return TestPods.baseUrl(pod);
    }

    String token(String username, String password) {
        HttpResponse<String> response = TestPods.send(HttpRequest.newBuilder(URI.create(managerUrl() + "/apiops/auth/token"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("grant_type=client_credentials&client_id=" + username
                        + "&client_secret=" + password))
                .build());
        if (response.statusCode() != 200) {
            throw new IllegalStateException("sign-in of " + username + " failed with " + response.statusCode());
        }
        String body = response.body();
        int start = body.indexOf("\"access_token\":\"") + 16;
        return body.substring(start, body.indexOf('"', start));
    }

    private void post(String path, String token, String json) {
        HttpResponse<String> response = TestPods.send(HttpRequest.newBuilder(URI.create(managerUrl() + path))
                .header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json))
                .build());
        if (response.statusCode() != 201) {
            throw new IllegalStateException("POST " + path + " answered " + response.statusCode() + ": " + response.body());
        }
    }

    /**
     * {@code 127.0.<net>.<index + 1>}, or with an address prefix {@code <prefix><11 or 21 + index>}: a loopback
     * address of the pod's own, so every pod keeps its cluster port.
     */
    private static String address(int net, int index) {
        return "127.0." + net + "." + (index + 1);
    }

    @Override
    public void close() {
        workers.values().forEach(Pod::stop);
        caches.values().forEach(Pod::stop);
        if (manager != null) {
            manager.stop();
        }
    }
}
