package io.pylon.worker.config;

import com.fasterxml.jackson.databind.JsonNode;
import io.pylon.core.http.Json;
import io.pylon.core.server.Pod;
import io.pylon.core.testing.TestPods;
import io.pylon.manager.ManagerModule;
import io.pylon.worker.WorkerModule;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.function.BooleanSupplier;

/** A real Manager pod (H2) with the test environment, and Worker pods that follow it; HTTP calls to them. */
final class ControlPlane implements AutoCloseable {
    static final String PASSWORD = "admin-Passw0rd!";

    final Pod manager;
    final String admin;

    ControlPlane() {
        this(Map.of());
    }

    ControlPlane(Map<String, String> extra) {
        Map<String, String> settings = new HashMap<>();
        settings.put("pylon.manager.admin.username", "admin");
        settings.put("pylon.manager.admin.password", PASSWORD);
        settings.put("pylon.manager.password.argon2-memory", "1024");
        settings.put("pylon.manager.password.argon2-iterations", "1");
        settings.put("pylon.manager.bootstrap.environment-urls", "worker=http://127.0.0.1:1,cache=http://127.0.0.1:2");
        settings.putAll(extra);
        manager = TestPods.start(new ManagerModule(), "manager-cp", settings);
        admin = token("admin", PASSWORD);
    }

    String url() {
        return TestPods.baseUrl(manager);
    }

    static Pod worker(String name, String managerUrl, Map<String, String> extra) {
        Map<String, String> settings = new HashMap<>();
        settings.put("pylon.worker.config-source", "manager");
        settings.put("pylon.worker.manager-url", managerUrl);
        settings.put("pylon.worker.config-poll-wait", "5s");
        settings.put("pylon.worker.config-manager-timeout", "2s");
        settings.putAll(extra);
        return TestPods.start(new WorkerModule(), name, settings);
    }

    String token(String username, String password) {
        HttpResponse<String> response = TestPods.send(HttpRequest.newBuilder(URI.create(url() + "/apiops/auth/token"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("grant_type=client_credentials&client_id="
                        + URLEncoder.encode(username, StandardCharsets.UTF_8) + "&client_secret="
                        + URLEncoder.encode(password, StandardCharsets.UTF_8)))
                .build());
        if (response.statusCode() != 200) {
            throw new IllegalStateException("sign-in failed: " + response.body());
        }
        return json(response.body()).path("access_token").asText();
    }

    HttpResponse<String> send(String method, String path, String token, String contentType, String body,
                              String... headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url() + path))
                .timeout(Duration.ofSeconds(60))
                .header("Authorization", "Bearer " + token)
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        if (contentType != null) {
            request.header("Content-Type", contentType);
        }
        if (headers.length > 0) {
            request.headers(headers);
        }
        return TestPods.send(request.build());
    }

    HttpResponse<String> post(String path, String json, String... headers) {
        return send("POST", path, admin, "application/json", json, headers);
    }

    HttpResponse<String> get(String path) {
        return send("GET", path, admin, null, null);
    }

    static String proxy(String name, String prefix, String upstream) {
        return "{\"name\":\"" + name + "\",\"pathPrefix\":\"" + prefix + "\",\"upstreams\":[\"" + upstream + "\"]}";
    }

    static JsonNode json(String body) {
        try {
            return Json.MAPPER.readTree(body);
        } catch (IOException e) {
            throw new IllegalStateException("not JSON: " + body, e);
        }
    }

    static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.sleep(50);
        }
    }

    @Override
    public void close() {
        manager.stop();
    }
}
