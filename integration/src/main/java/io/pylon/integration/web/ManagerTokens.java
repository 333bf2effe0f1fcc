package io.pylon.integration.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.pylon.core.http.WholeAnswer;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.Semaphore;

/**
 * Checks management tokens against the Manager ({@code GET /apiops/auth/me}): the Manager alone knows tokens, their
 * revocation and their accounts' roles. A valid answer is remembered for a short time under the token's SHA-256 (never
 * the token), at most {@link #MAX_ENTRIES} of them; refusals are not remembered, and at most {@link #MAX_CALLS} checks
 * reach the Manager at once. Thread-safe: a concurrent map and a semaphore.
 */
public final class ManagerTokens {
    static final int MAX_ENTRIES = 10_000;
    static final int MAX_CALLS = 16;
    /** The most of the Manager's answer about a token this pod holds (a user's name and role: a few hundred bytes). */
    private static final int ANSWER_BYTES = 64 * 1024;

    /** What the Manager said of a token. */
    public enum Role {
        VIEWER, OPERATOR, ADMIN;

        static Role of(String name) {
            return switch (name) {
                case "admin" -> ADMIN;
                case "operator" -> OPERATOR;
                default -> VIEWER;
            };
        }
    }

    /** The account a token belongs to. */
    public record Caller(String username, Role role) {
    }

    private record Entry(Caller caller, Instant until) {
    }

    private final URI me;
    private final HttpClient client;
    private final ObjectMapper json;
    private final Duration ttl;
    private final Clock clock;
    private final ConcurrentMap<String, Entry> known = new ConcurrentHashMap<>();
    private final Semaphore calls = new Semaphore(MAX_CALLS);

    public ManagerTokens(URI managerUrl, ObjectMapper json, Duration ttl, Clock clock) {
        this.me = managerUrl.resolve("/apiops/auth/me");
        this.client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();
        this.json = json;
        this.ttl = ttl;
        this.clock = clock;
    }

    /**
     * The token's account and role.
     *
     * @throws ApiError 401 when the Manager refuses the token, 503 when it cannot be asked
     */
    Caller check(String token) {
        String key = sha256(token);
        Instant now = clock.instant();
        Entry entry = known.get(key);
        if (entry != null && entry.until().isAfter(now)) {
            return entry.caller();
        }
        if (!calls.tryAcquire()) {
            throw new ApiError(io.helidon.http.Status.SERVICE_UNAVAILABLE_503, "temporarily_unavailable",
                    "Too many token checks in flight; try again.");
        }
        try {
            // the timeout bounds the Manager's whole answer
            HttpResponse<byte[]> response = WholeAnswer.send(client, HttpRequest.newBuilder(me).timeout(Duration.ofSeconds(5))
                    .header("Authorization", "Bearer " + token).GET().build(), WholeAnswer.bytesAtMost(ANSWER_BYTES));
            if (response.statusCode() == 401 || response.statusCode() == 403 || response.statusCode() == 404) {
                throw new ApiError(io.helidon.http.Status.UNAUTHORIZED_401, "invalid_token",
                        "The Manager does not accept this token.");
            }
            if (response.statusCode() != 200) {
                throw unavailable("answered " + response.statusCode());
            }
            JsonNode body = json.readTree(response.body());
            Caller caller = new Caller(body.path("username").asText("?"),
                    Role.of(body.path("role").asText()));
            if (known.size() >= MAX_ENTRIES) {
                known.clear();
            }
            known.put(key, new Entry(caller, now.plus(ttl)));
            return caller;
        } catch (IOException e) {
            throw unavailable("cannot be reached (" + e.getClass().getSimpleName() + ")");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw unavailable("interrupted");
        } finally {
            calls.release();
        }
    }

    private static ApiError unavailable(String why) {
        return new ApiError(io.helidon.http.Status.SERVICE_UNAVAILABLE_503, "temporarily_unavailable",
                "The Manager, which checks management tokens, " + why + ".");
    }

    private static String sha256(String token) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
