package io.pylon.portal;

import org.jspecify.annotations.Nullable;

import io.pylon.core.http.Json;
import io.pylon.core.http.WholeAnswer;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * The Portal's calls to the Manager, made with the Portal's own credential (role {@code portal}): an access token from
 * {@code /apiops/auth/token}, fetched again when the Manager answers 401 for it. Thread-safe: the token is a volatile
 * field; two threads may fetch one at the same time, which costs a sign-in and nothing else.
 */
final class ManagerLink {
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    /** The most of a Manager answer the Portal holds: its largest are API descriptions, far smaller. */
    private static final int MAX_ANSWER = 64 * 1024 * 1024;

    /** A Manager answer: status and body. */
    record Answer(int status, String body) {
    }

    private final URI manager;
    private final String username;
    private final @Nullable String password;
    private final HttpClient http;
    private volatile @Nullable String token;

    ManagerLink(URI manager, String username, @Nullable String password) {
        this.manager = manager;
        this.username = username;
        this.password = password;
        this.http = HttpClient.newBuilder().connectTimeout(TIMEOUT).followRedirects(HttpClient.Redirect.NEVER).build();
    }

    Answer call(String method, String path, @Nullable String jsonBody, @Nullable String session, @Nullable String csrf)
            throws IOException {
        return call(method, path, jsonBody, session, csrf, null);
    }

    /** @param client the browser's address, for the Manager's sign-in throttle (null: not sent) */
    Answer call(String method, String path, @Nullable String jsonBody, @Nullable String session, @Nullable String csrf,
                @Nullable String client)
            throws IOException {
        String current = token;
        if (current == null) {
            current = signIn();
        }
        Answer answer = send(method, path, jsonBody, session, csrf, client, current);
        if (answer.status() == 401 && answer.body().contains("invalid_token")) {
            answer = send(method, path, jsonBody, session, csrf, client, signIn());
        }
        return answer;
    }

    private Answer send(String method, String path, @Nullable String jsonBody, @Nullable String session,
                        @Nullable String csrf, @Nullable String client, String bearer) throws IOException {
        HttpRequest.Builder request = HttpRequest.newBuilder(manager.resolve(path)).timeout(TIMEOUT)
                .header("Authorization", "Bearer " + bearer)
                .method(method, jsonBody == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(jsonBody));
        if (jsonBody != null) {
            request.header("Content-Type", "application/json");
        }
        if (session != null) {
            request.header("X-Pylon-Developer-Session", session);
        }
        if (csrf != null) {
            request.header("X-Pylon-Csrf", csrf);
        }
        if (client != null) {
            request.header("X-Pylon-Developer-Address", client);
        }
        try {
            HttpResponse<String> response = WholeAnswer.send(http, request.build(), WholeAnswer.textAtMost(MAX_ANSWER));
            return new Answer(response.statusCode(), response.body());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }

    private String signIn() throws IOException {
        if (password == null) {
            throw new IOException("pylon.portal.manager-password is not set");
        }
        String form = "grant_type=client_credentials&client_id=" + URLEncoder.encode(username, StandardCharsets.UTF_8)
                + "&client_secret=" + URLEncoder.encode(password, StandardCharsets.UTF_8);
        HttpRequest request = HttpRequest.newBuilder(manager.resolve("/apiops/auth/token")).timeout(TIMEOUT)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form)).build();
        try {
            HttpResponse<String> response = WholeAnswer.send(http, request, WholeAnswer.textAtMost(MAX_ANSWER));
            if (response.statusCode() != 200) {
                throw new IOException("the Manager refused the Portal's credential (" + response.statusCode() + ")");
            }
            String fresh = Json.MAPPER.readTree(response.body()).path("access_token").asText();
            token = fresh;
            return fresh;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }
}
