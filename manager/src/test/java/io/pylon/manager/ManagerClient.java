package io.pylon.manager;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.pylon.core.http.Json;
import io.pylon.core.server.Pod;
import io.pylon.core.testing.TestPods;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

/** Starts Manager pods on loopback and speaks the management API to them, for tests. */
public final class ManagerClient {
    public static final String ADMIN = "admin";
    public static final String ADMIN_PASSWORD = "Adm1n-test-password-Q7x";

    private final Pod pod;

    public ManagerClient(Pod pod) {
        this.pod = pod;
    }

    /** A Manager with a known admin password and cheap (but real) Argon2id parameters; the given settings win. */
    public static Pod start(String podName, Map<String, String> settings) {
        return start(new ManagerModule(), podName, settings);
    }

    /** The same with a module instance the caller keeps (to ask it about the started pod). */
    public static Pod start(ManagerModule module, String podName, Map<String, String> settings) {
        Map<String, String> all = new LinkedHashMap<>();
        all.put("pylon.manager.admin.password", ADMIN_PASSWORD);
        all.put("pylon.manager.password.argon2-memory", "4096");
        all.put("pylon.manager.password.argon2-iterations", "1");
        all.putAll(settings);
        return TestPods.start(module, podName, all);
    }

    public Pod pod() {
        return pod;
    }

    public HttpResponse<String> tokenRequest(Map<String, String> form, String... headers) {
        HttpRequest.Builder request = builder("/apiops/auth/token")
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form(form)));
        if (headers.length > 0) {
            request.headers(headers);
        }
        return TestPods.send(request.build());
    }

    public HttpResponse<String> login(String username, String password) {
        return tokenRequest(Map.of("grant_type", "client_credentials", "client_id", username, "client_secret", password));
    }

    /** An access token for the account; fails the test when the login fails. */
    public String token(String username, String password) {
        HttpResponse<String> response = login(username, password);
        if (response.statusCode() != 200) {
            throw new AssertionError("login of " + username + " failed: " + response.statusCode() + " " + response.body());
        }
        return json(response).get("access_token").asText();
    }

    public String adminToken() {
        return token(ADMIN, ADMIN_PASSWORD);
    }

    public HttpResponse<String> get(String path, String token) {
        return TestPods.send(authorized(builder(path), token).GET().build());
    }

    public HttpResponse<String> delete(String path, String token) {
        return TestPods.send(authorized(builder(path), token).DELETE().build());
    }

    public HttpResponse<String> postJson(String path, String token, String body) {
        return send("POST", path, token, body);
    }

    public HttpResponse<String> send(String method, String path, String token, String jsonBody) {
        HttpRequest.Builder request = authorized(builder(path), token).header("Content-Type", "application/json")
                .method(method, jsonBody == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(jsonBody));
        return TestPods.send(request.build());
    }

    public HttpResponse<String> postForm(String path, String token, Map<String, String> form) {
        return TestPods.send(authorized(builder(path), token)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form(form))).build());
    }

    /** Creates an account through the API as admin. */
    public void createUser(String adminToken, String username, String password, String role) {
        HttpResponse<String> response = postJson("/apiops/users", adminToken,
                "{\"username\":\"" + username + "\",\"password\":\"" + password + "\",\"role\":\"" + role + "\"}");
        if (response.statusCode() != 201) {
            throw new AssertionError("creating " + username + " failed: " + response.statusCode() + " " + response.body());
        }
    }

    public HttpRequest.Builder builder(String path) {
        return HttpRequest.newBuilder(URI.create(TestPods.baseUrl(pod) + path)).timeout(Duration.ofSeconds(30));
    }

    private static HttpRequest.Builder authorized(HttpRequest.Builder builder, String token) {
        return token == null ? builder : builder.header("Authorization", "Bearer " + token);
    }

    public static String basic(String username, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((username + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    public static String form(Map<String, String> fields) {
        return fields.entrySet().stream()
                .map(e -> URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8) + "="
                        + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
                .collect(Collectors.joining("&"));
    }

    public static JsonNode json(HttpResponse<String> response) {
        try {
            return Json.MAPPER.readTree(response.body());
        } catch (JsonProcessingException e) {
            throw new AssertionError("not JSON (" + response.statusCode() + "): " + response.body(), e);
        }
    }
}
