package io.pylon.distribution.e2e;

import io.pylon.cache.CacheModule;
import io.pylon.core.server.Pod;
import io.pylon.core.testing.TestPods;
import io.pylon.manager.ManagerModule;
import io.pylon.worker.WorkerModule;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
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
 * A Manager plus n Worker and m Cache pods in this JVM on 127.0.0.1 (free ports picked first, because static
 * discovery and the data grid need every pod's address before any starts), with an environment, an admin and a
 * viewer account created through the management API.
 */
final class LoopbackPlatform implements AutoCloseable {
    static final String ENVIRONMENT = "e2e";
    static final String ADMIN_PASSWORD = "e2e-Admin-Passw0rd";
    static final String VIEWER_PASSWORD = "e2e-Viewer-Passw0rd";

    final Pod manager;
    final Map<String, Pod> workers = new LinkedHashMap<>();
    final Map<String, Pod> caches = new LinkedHashMap<>();

    LoopbackPlatform(int workerCount, int cacheCount) {
        List<Integer> workerPorts = freePorts(workerCount);
        List<Integer> cachePorts = freePorts(cacheCount);
        List<Integer> gridPorts = freePorts(cacheCount);
        String gridMembers = gridPorts.stream().map(p -> "127.0.0.1:" + p).collect(Collectors.joining(","));
        String cachePeers = IntStream.range(0, cacheCount)
                .mapToObj(i -> "cache-" + i + "=http://127.0.0.1:" + cachePorts.get(i)).collect(Collectors.joining(","));
        String workerPeers = IntStream.range(0, workerCount)
                .mapToObj(i -> "worker-" + i + "=http://127.0.0.1:" + workerPorts.get(i)).collect(Collectors.joining(","));
        try {
            manager = TestPods.start(new ManagerModule(), "manager-0", Map.of(
                    "pylon.environment.name", ENVIRONMENT,
                    "pylon.manager.admin.username", "admin",
                    "pylon.manager.admin.password", ADMIN_PASSWORD,
                    "pylon.manager.password.argon2-memory", "1024",
                    "pylon.manager.password.argon2-iterations", "1"));
            // the Cache pods join one data grid; they start in parallel because each waits for the others a while
            List<Thread> starting = new ArrayList<>();
            for (int i = 0; i < cacheCount; i++) {
                int n = i;
                starting.add(Thread.ofPlatform().start(() -> {
                    Pod pod = TestPods.start(new CacheModule(), "cache-" + n, Map.of(
                            "pylon.environment.name", ENVIRONMENT,
                            "pylon.server.port", String.valueOf(cachePorts.get(n)),
                            "pylon.discovery.static", cachePeers,
                            "pylon.grid.port", String.valueOf(gridPorts.get(n)),
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
                workers.put("worker-" + i, TestPods.start(new WorkerModule(), "worker-" + i, Map.of(
                        "pylon.environment.name", ENVIRONMENT,
                        "pylon.server.port", String.valueOf(workerPorts.get(i)),
                        "pylon.discovery.static", workerPeers,
                        "pylon.cache.addresses", gridMembers)));
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

    private static List<Integer> freePorts(int count) {
        List<ServerSocket> sockets = new ArrayList<>();
        try {
            for (int i = 0; i < count; i++) {
                sockets.add(new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1")));
            }
            return sockets.stream().map(ServerSocket::getLocalPort).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            for (ServerSocket socket : sockets) {
                try {
                    socket.close();
                } catch (IOException ignored) {
                    // the port is still free for the pod
                }
            }
        }
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
