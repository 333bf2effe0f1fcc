package io.pylon.distribution.durability;

import com.fasterxml.jackson.databind.JsonNode;
import io.pylon.core.http.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every write the Manager answered with 2xx survives SIGKILL. A real Manager process on the embedded
 * H2 database takes user creations, personal-token creations and revocations from several client threads; it is
 * killed with SIGKILL in the middle, restarted on the same data directory, and every acknowledged user must exist,
 * every acknowledged token must still authenticate and every acknowledged revocation must still hold. Three rounds on
 * one data directory; each round checks everything acknowledged so far.
 */
class KillNineDurabilityTest {
    private static final int ROUNDS = 3;
    private static final int CLIENTS = 4;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final Set<String> users = ConcurrentHashMap.newKeySet();
    private final Set<String> liveTokens = ConcurrentHashMap.newKeySet();
    private final Set<String> revokedTokens = ConcurrentHashMap.newKeySet();

    @Test
    void everyAcknowledgedWriteSurvivesKillNine(@TempDir Path dataDir) throws Exception {
        for (int round = 1; round <= ROUNDS; round++) {
            try (ManagerProcess manager = ManagerProcess.start(dataDir)) {
                String admin = adminToken(manager.baseUrl());
                if (round > 1) {
                    assertEverythingAcknowledgedIsThere(manager, admin, round - 1);
                }
                writeUntilKilled(manager, admin, round);
            }
        }
        try (ManagerProcess manager = ManagerProcess.start(dataDir)) {
            assertEverythingAcknowledgedIsThere(manager, adminToken(manager.baseUrl()), ROUNDS);
        }
        assertThat(users).as("users acknowledged over all rounds").hasSizeGreaterThan(ROUNDS * 5);
        assertThat(revokedTokens).as("revocations acknowledged over all rounds").isNotEmpty();
    }

    private void writeUntilKilled(ManagerProcess manager, String admin, int round) throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        List<Thread> clients = new ArrayList<>();
        for (int client = 0; client < CLIENTS; client++) {
            String prefix = "r" + round + "c" + client + "n";
            clients.add(Thread.ofPlatform().start(() -> writeLoop(manager.baseUrl(), admin, prefix, stop)));
        }
        // the kill lands somewhere in a steady stream of writes, not at a fixed point of it
        Thread.sleep(ThreadLocalRandom.current().nextLong(1_000, 2_500));
        manager.killNine();
        stop.set(true);
        for (Thread client : clients) {
            client.join(10_000);
        }
    }

    private void writeLoop(String baseUrl, String admin, String prefix, AtomicBoolean stop) {
        for (int n = 0; !stop.get(); n++) {
            try {
                String username = prefix + n;
                if (send(post(baseUrl + "/apiops/users", admin, "{\"username\":\"" + username
                        + "\",\"password\":\"durable-password-" + n + "\",\"role\":\"viewer\"}")).statusCode() == 201) {
                    users.add(username);
                }
                HttpResponse<String> created = send(post(baseUrl + "/apiops/tokens", admin,
                        "{\"name\":\"" + username + "\",\"expiresAt\":null}"));
                if (created.statusCode() != 201) {
                    continue;
                }
                JsonNode token = Json.MAPPER.readTree(created.body());
                String value = token.path("token").asText();
                if (n % 3 != 2) {
                    liveTokens.add(value);
                    continue;
                }
                // revoked before it is recorded as live: a revocation sent but not answered leaves it in neither set
                HttpResponse<String> revoked = send(HttpRequest.newBuilder(
                        URI.create(baseUrl + "/apiops/tokens/" + token.path("id").asText()))
                        .header("Authorization", "Bearer " + admin).DELETE().build());
                if (revoked.statusCode() == 204) {
                    revokedTokens.add(value);
                }
            } catch (IOException e) {
                return; // the process is gone: what was not answered was not acknowledged
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private void assertEverythingAcknowledgedIsThere(ManagerProcess manager, String admin, int roundsBefore)
            throws Exception {
        List<String> lost = new ArrayList<>();
        for (String username : users) {
            HttpResponse<String> user = send(HttpRequest.newBuilder(
                    URI.create(manager.baseUrl() + "/apiops/users/" + username))
                    .header("Authorization", "Bearer " + admin).build());
            if (user.statusCode() != 200) {
                lost.add("user " + username + " (" + user.statusCode() + ")");
            }
        }
        for (String token : liveTokens) {
            int status = me(manager.baseUrl(), token);
            if (status != 200) {
                lost.add("personal token ..." + token.substring(token.length() - 6) + " (" + status + ")");
            }
        }
        for (String token : revokedTokens) {
            int status = me(manager.baseUrl(), token);
            if (status != 401) {
                lost.add("revocation of personal token ..." + token.substring(token.length() - 6) + " (" + status + ")");
            }
        }
        assertThat(lost).as("acknowledged writes lost after %d kill -9 (%d users, %d live tokens, %d revocations "
                        + "acknowledged)", roundsBefore, users.size(), liveTokens.size(), revokedTokens.size())
                .isEmpty();
    }

    private int me(String baseUrl, String token) throws IOException, InterruptedException {
        return send(HttpRequest.newBuilder(URI.create(baseUrl + "/apiops/auth/me"))
                .header("Authorization", "Bearer " + token).build()).statusCode();
    }

    private String adminToken(String baseUrl) throws IOException, InterruptedException {
        String form = "grant_type=client_credentials&client_id=admin&client_secret="
                + URLEncoder.encode(ManagerProcess.ADMIN_PASSWORD, StandardCharsets.UTF_8);
        HttpResponse<String> response = send(HttpRequest.newBuilder(URI.create(baseUrl + "/apiops/auth/token"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form)).build());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return Json.MAPPER.readTree(response.body()).path("access_token").asText();
    }

    private static HttpRequest post(String url, String bearer, String json) {
        return HttpRequest.newBuilder(URI.create(url)).header("Authorization", "Bearer " + bearer)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(json)).build();
    }

    private HttpResponse<String> send(HttpRequest request) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(request, (name, value) -> true).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
