package io.pylon.manager.console;

import com.fasterxml.jackson.databind.JsonNode;
import io.pylon.core.http.Json;
import io.pylon.core.server.Pod;
import io.pylon.core.testing.TestPods;
import io.pylon.manager.ManagerModule;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/** A real Manager pod on loopback (H2 database in a temp folder) with an admin account, and HTTP calls to it. */
final class ManagerUnderTest implements AutoCloseable {
    static final String ADMIN_PASSWORD = "admin-Passw0rd!";

    final Pod pod;

    ManagerUnderTest(Map<String, String> settings) {
        Map<String, String> all = new HashMap<>(settings);
        all.put("pylon.manager.admin.username", "admin");
        all.put("pylon.manager.admin.password", ADMIN_PASSWORD);
        all.put("pylon.manager.password.argon2-memory", "1024");
        all.put("pylon.manager.password.argon2-iterations", "1");
        this.pod = TestPods.start(new ManagerModule(), "manager-test", all);
    }

    String url() {
        return TestPods.baseUrl(pod);
    }

    String token(String username, String password) {
        HttpResponse<String> response = TestPods.send(HttpRequest.newBuilder(URI.create(url() + "/apiops/auth/token"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("grant_type=client_credentials&client_id=" + enc(username)
                        + "&client_secret=" + enc(password)))
                .build());
        if (response.statusCode() != 200) {
            throw new IllegalStateException("sign-in of " + username + " failed: " + response.body());
        }
        return json(response.body()).path("access_token").asText();
    }

    HttpResponse<String> get(String path, String token) {
        return TestPods.get(pod, path, "Authorization", "Bearer " + token);
    }

    HttpResponse<InputStream> stream(String path, String token) {
        try {
            return TestPods.client().send(HttpRequest.newBuilder(URI.create(url() + path))
                    .header("Authorization", "Bearer " + token).timeout(Duration.ofSeconds(60)).build(),
                    HttpResponse.BodyHandlers.ofInputStream());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    HttpResponse<String> send(String method, String path, String token, String jsonBody) {
        return TestPods.send(HttpRequest.newBuilder(URI.create(url() + path))
                .header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/json")
                .method(method, HttpRequest.BodyPublishers.ofString(jsonBody))
                .build());
    }

    static JsonNode json(String body) {
        try {
            return Json.MAPPER.readTree(body);
        } catch (IOException e) {
            throw new IllegalStateException("not JSON: " + body, e);
        }
    }

    private static String enc(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        pod.stop();
    }
}
