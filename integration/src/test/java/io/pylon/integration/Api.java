package io.pylon.integration;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** A client of the Integration API (and the Manager's token endpoint) for tests. */
final class Api {
    static final JsonMapper JSON = JsonMapper.builder().build();
    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    /** An answer: status, body as text, and as JSON when it is. */
    record Answer(int status, String text, HttpResponse<String> response) {
        JsonNode json() {
            try {
                return JSON.readTree(text);
            } catch (IOException e) {
                throw new AssertionError("not JSON (" + status + "): " + text, e);
            }
        }
    }

    private final String base;
    private final String token;

    Api(String base, String token) {
        this.base = base;
        this.token = token;
    }

    static String token(String managerUrl, String password) throws Exception {
        HttpResponse<String> r = CLIENT.send(HttpRequest.newBuilder(URI.create(managerUrl + "/apiops/auth/token"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("grant_type=client_credentials&client_id=admin&client_secret="
                        + password)).build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new AssertionError("token: " + r.statusCode() + " " + r.body());
        }
        return JSON.readTree(r.body()).path("access_token").asText();
    }

    String token() {
        return token;
    }

    Answer send(String method, String path, String body, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(90))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        if (headers.length > 0) {
            b.headers(headers);
        }
        HttpResponse<String> r = CLIENT.send(b.build(), HttpResponse.BodyHandlers.ofString());
        return new Answer(r.statusCode(), r.body(), r);
    }

    Answer get(String path) throws Exception {
        return send("GET", path, null);
    }

    Answer post(String path, String body) throws Exception {
        return send("POST", path, body, "Content-Type", "application/yaml");
    }

    /** Creates a flow; fails the test when it is refused. */
    JsonNode create(String yaml) throws Exception {
        Answer a = post("/platform/integration/flows", yaml);
        if (a.status() != 201) {
            throw new AssertionError("create: " + a.status() + " " + a.text());
        }
        return a.json();
    }

    /** Runs a flow and waits for it to finish. */
    JsonNode runAndWait(String flow, String input) throws Exception {
        Answer a = send("POST", "/platform/integration/flows/" + flow + "/runs?wait=60s", input,
                "Content-Type", "application/json");
        if (a.status() != 200) {
            throw new AssertionError("run: " + a.status() + " " + a.text());
        }
        return a.json();
    }

    /** Polls until the condition holds on the answer of {@code path}, up to {@code timeout}. */
    JsonNode await(String path, java.util.function.Predicate<JsonNode> condition, Duration timeout) throws Exception {
        long end = System.nanoTime() + timeout.toNanos();
        JsonNode last = null;
        while (System.nanoTime() < end) {
            Answer a = get(path);
            if (a.status() == 200) {
                last = a.json();
                if (condition.test(last)) {
                    return last;
                }
            }
            Thread.sleep(200);
        }
        throw new AssertionError("not reached within " + timeout + " at " + path + "; last: " + last);
    }
}
