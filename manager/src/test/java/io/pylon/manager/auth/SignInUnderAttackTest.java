package io.pylon.manager.auth;

import com.fasterxml.jackson.databind.JsonNode;
import io.pylon.core.http.Json;
import io.pylon.core.server.Pod;
import io.pylon.core.testing.TestPods;
import io.pylon.manager.Concurrently;
import io.pylon.manager.ManagerClient;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static io.pylon.manager.ApiAssertions.assertBadCredentials;
import static io.pylon.manager.ApiAssertions.assertError;
import static io.pylon.manager.ManagerClient.ADMIN;
import static io.pylon.manager.ManagerClient.ADMIN_PASSWORD;
import static io.pylon.manager.ManagerClient.json;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Sign-in under attack, on a real Manager pod: a bounded hashing pool answering 429 when full, throttling per source address and
 * per account and address, a lock that leaves tokens alone, and failures counted exactly under concurrency. Other
 * source addresses are real: raw sockets bound to 127.0.11.x.
 */
class SignInUnderAttackTest {
    private static final String VICTIM = "victim";
    private static final String VICTIM_PASSWORD = "Victim-password-42";
    /** Thresholds so high that only the setting under test acts. */
    private static final String NEVER = "1000000";

    private static Pod start(String name, Map<String, String> settings) {
        Map<String, String> all = new HashMap<>(Map.of("pylon.manager.signin.source-max-failures", NEVER,
                "pylon.manager.signin.account-source-max-failures", NEVER, "pylon.manager.auth.max-failures", "1000"));
        all.putAll(settings);
        return ManagerClient.start(name, all);
    }

    private static String withVictim(ManagerClient manager) {
        String admin = manager.adminToken();
        manager.createUser(admin, VICTIM, VICTIM_PASSWORD, "viewer");
        return admin;
    }

    @Test
    void aFullHashingPoolAnswers429WithRetryAfterAtOnce() throws Exception {
        // one thread, one place in the queue, and a hash slow enough that six requests sent together all arrive
        // while the first two are still being checked
        try (Pod pod = start("manager-pool-full", Map.of("pylon.manager.signin.hash-threads", "1",
                "pylon.manager.signin.hash-queue", "1", "pylon.manager.password.argon2-memory", "65536",
                "pylon.manager.password.argon2-iterations", "6"))) {
            ManagerClient manager = new ManagerClient(pod);
            long start = System.nanoTime();

            List<Timed> answers = Concurrently.run(6, () -> {
                HttpResponse<String> response = manager.login("nobody", "wrong-password");
                return new Timed(response, (System.nanoTime() - start) / 1_000_000);
            });

            List<Timed> refused = answers.stream().filter(a -> a.response().statusCode() == 429).toList();
            List<Timed> checked = answers.stream().filter(a -> a.response().statusCode() == 401).toList();
            assertThat(checked).hasSize(2);
            assertThat(refused).hasSize(4);
            long firstChecked = checked.stream().mapToLong(Timed::millis).min().orElseThrow();
            for (Timed answer : refused) {
                assertError(answer.response(), 429, "temporarily_unavailable");
                assertThat(answer.response().headers().firstValue("Retry-After")).hasValue("1");
                assertThat(answer.response().headers().firstValue("Cache-Control")).hasValue("no-store");
                assertThat(answer.millis()).as("refused before any check finished").isLessThan(firstChecked);
            }
            for (Timed answer : checked) {
                assertBadCredentials(answer.response());
            }
        }
    }

    private record Timed(HttpResponse<String> response, long millis) {
    }

    @Test
    void aSourceThatFailsTooOftenIsThrottledWhileOtherAddressesSignIn() {
        try (Pod pod = start("manager-source-throttle", Map.of("pylon.manager.signin.source-max-failures", "3",
                "pylon.manager.signin.failure-window", "1h"))) {
            for (String name : List.of("one", "two", "three")) {
                assertThat(SourceAddressClient.login(pod, "127.0.11.1", name, "wrong-password").status()).isEqualTo(401);
            }

            SourceAddressClient.Answer throttled = SourceAddressClient.login(pod, "127.0.11.1", ADMIN, ADMIN_PASSWORD);

            assertThat(throttled.status()).isEqualTo(429);
            assertThat(throttled.header("Content-Type")).isEqualTo("application/json");
            assertThat(throttled.header("Cache-Control")).isEqualTo("no-store");
            assertThat(Long.parseLong(throttled.header("Retry-After"))).isBetween(3500L, 3600L);
            JsonNode body = parseJson(throttled.body());
            assertThat(body.get("error").asText()).isEqualTo("temporarily_unavailable");
            assertThat(body.get("error_description").asText()).contains("from this address");
            assertThat(SourceAddressClient.login(pod, "127.0.11.2", ADMIN, ADMIN_PASSWORD).status()).isEqualTo(200);
        }
    }

    @Test
    void behindATrustedIngressEachForwardedAddressIsThrottledApartAndAudited() {
        try (Pod pod = start("manager-ingress-throttle", Map.of("pylon.manager.signin.source-max-failures", "3",
                "pylon.manager.signin.failure-window", "1h", "pylon.manager.trusted-proxies", "127.0.0.1"))) {
            ManagerClient ingress = new ManagerClient(pod);
            for (String name : List.of("one", "two", "three")) {
                assertThat(ingress.tokenRequest(Map.of("grant_type", "client_credentials", "client_id", name,
                        "client_secret", "wrong-password"), "X-Forwarded-For", "203.0.113.7").statusCode())
                        .isEqualTo(401);
            }
            Map<String, String> admin = Map.of("grant_type", "client_credentials", "client_id", ADMIN,
                    "client_secret", ADMIN_PASSWORD);
            assertThat(ingress.tokenRequest(admin, "X-Forwarded-For", "203.0.113.7").statusCode())
                    .as("the guessing address").isEqualTo(429);
            assertThat(ingress.tokenRequest(admin, "X-Forwarded-For", "198.51.100.8, 127.0.0.1").statusCode())
                    .as("another developer behind the same ingress").isEqualTo(200);
            // not a trusted peer: its X-Forwarded-For is not believed, it is counted as itself
            for (String name : List.of("one", "two", "three")) {
                assertThat(SourceAddressClient.post(pod, "127.0.11.5", "/apiops/auth/token",
                        "grant_type=client_credentials&client_id=" + name + "&client_secret=wrong",
                        "X-Forwarded-For: 198.51.100.9" + name.length()).status()).isEqualTo(401);
            }
            assertThat(SourceAddressClient.post(pod, "127.0.11.5", "/apiops/auth/token",
                    ManagerClient.form(admin), "X-Forwarded-For: 198.51.100.77").status()).isEqualTo(429);
            assertThat(SourceAddressClient.post(pod, "127.0.11.6", "/apiops/auth/token",
                    ManagerClient.form(admin), "X-Forwarded-For: 198.51.100.66").status()).isEqualTo(200);
            String token = ingress.token(ADMIN, ADMIN_PASSWORD);
            JsonNode events = parseJson(ingress.get("/apiops/audit?limit=50", token).body()).path("events");
            assertThat(events.findValuesAsText("sourceAddress")).as("the audit log's sources")
                    .contains("198.51.100.8", "127.0.11.6", "127.0.0.1").doesNotContain("198.51.100.66");
        }
    }

    @Test
    void anAccountGuessedFromOneAddressStaysOpenToOthersAndUnlocked() {
        try (Pod pod = start("manager-account-source", Map.of("pylon.manager.signin.account-source-max-failures", "3",
                "pylon.manager.auth.max-failures", "10"))) {
            ManagerClient manager = new ManagerClient(pod);
            String admin = withVictim(manager);
            for (int i = 0; i < 3; i++) {
                assertThat(SourceAddressClient.login(pod, "127.0.11.3", VICTIM, "wrong-" + i).status()).isEqualTo(401);
            }

            SourceAddressClient.Answer throttled = SourceAddressClient.login(pod, "127.0.11.3", VICTIM, VICTIM_PASSWORD);

            assertThat(throttled.status()).isEqualTo(429);
            assertThat(throttled.body()).contains("to this account from this address");
            assertThat(throttled.header("Retry-After")).isNotNull();
            assertThat(SourceAddressClient.login(pod, "127.0.11.3", ADMIN, ADMIN_PASSWORD).status()).isEqualTo(200);
            assertThat(SourceAddressClient.login(pod, "127.0.11.4", VICTIM, VICTIM_PASSWORD).status()).isEqualTo(200);
            JsonNode user = json(manager.get("/apiops/users/" + VICTIM, admin));
            assertThat(user.get("locked").asBoolean()).isFalse();
        }
    }

    @Test
    void aLockStopsPasswordSignInButNotTheAccountsTokens() {
        try (Pod pod = start("manager-lock-tokens", Map.of("pylon.manager.auth.max-failures", "10",
                "pylon.manager.signin.account-source-max-failures", "5"))) {
            ManagerClient manager = new ManagerClient(pod);
            String admin = withVictim(manager);
            String access = manager.token(VICTIM, VICTIM_PASSWORD);
            HttpResponse<String> created = manager.postJson("/apiops/tokens", access, "{\"name\":\"ci\",\"expiresAt\":null}");
            assertThat(created.statusCode()).isEqualTo(201);
            String personal = json(created).get("token").asText();

            // ten anonymous wrong passwords from two addresses (five each, the per-address limit) lock the account
            for (int i = 0; i < 10; i++) {
                String source = i % 2 == 0 ? "127.0.11.5" : "127.0.11.6";
                assertThat(SourceAddressClient.login(pod, source, VICTIM, "wrong-" + i).status()).isEqualTo(401);
            }

            assertThat(json(manager.get("/apiops/users/" + VICTIM, admin)).get("locked").asBoolean()).isTrue();
            assertBadCredentials(manager.login(VICTIM, VICTIM_PASSWORD));
            assertThat(manager.get("/apiops/auth/me", access).statusCode()).isEqualTo(200);
            assertThat(manager.get("/apiops/auth/me", personal).statusCode()).isEqualTo(200);
            assertThat(manager.get("/apiops/tokens", personal).statusCode()).isEqualTo(200);
            // revoking stays an explicit action, and works as before
            assertThat(manager.postForm("/apiops/auth/revoke", access, Map.of("token", access)).statusCode()).isEqualTo(200);
            assertThat(manager.get("/apiops/auth/me", access).statusCode()).isEqualTo(401);
            assertThat(manager.get("/apiops/auth/me", personal).statusCode()).isEqualTo(200);
        }
    }

    @Test
    void concurrentWrongPasswordsAreCountedExactlyAndLockOnce() throws Exception {
        try (Pod pod = start("manager-atomic-count", Map.of("pylon.manager.auth.max-failures", "5",
                "pylon.manager.signin.hash-threads", "4", "pylon.manager.signin.hash-queue", "64"))) {
            ManagerClient manager = new ManagerClient(pod);
            String admin = withVictim(manager);
            manager.createUser(admin, "counted", "Counted-password-1", "viewer");

            List<Integer> below = Concurrently.run(4, () -> manager.login("counted", "wrong-password").statusCode());
            List<Integer> past = Concurrently.run(12, () -> manager.login(VICTIM, "wrong-password").statusCode());

            assertThat(below).containsOnly(401);
            assertThat(past).containsOnly(401);
            assertThat(json(manager.get("/apiops/users/counted", admin)).get("failedAttempts").asInt()).isEqualTo(4);
            JsonNode events = json(manager.get("/apiops/audit?limit=1000", admin)).get("events");
            assertThat(count(events, "account.locked", "user:" + VICTIM, null)).isEqualTo(1);
            assertThat(count(events, "login.failed", "user:" + VICTIM, "bad-password")).isEqualTo(5);
            assertThat(count(events, "login.failed", "user:" + VICTIM, "locked")).isEqualTo(7);
            assertThat(json(manager.get("/apiops/users/" + VICTIM, admin)).get("locked").asBoolean()).isTrue();
        }
    }

    private static long count(JsonNode events, String action, String target, String outcome) {
        long n = 0;
        for (JsonNode event : events) {
            if (event.get("action").asText().equals(action) && event.get("target").asText().equals(target)
                    && (outcome == null || event.get("outcome").asText().equals(outcome))) {
                n++;
            }
        }
        return n;
    }

    @Test
    void aFloodOfWrongPasswordsLeavesProbesAndOtherEndpointsAnswering() throws Exception {
        // production Argon2id cost and the default pool; the throttle is off so that every request reaches hashing
        try (Pod pod = start("manager-flood", Map.of("pylon.manager.password.argon2-memory", "19456",
                "pylon.manager.password.argon2-iterations", "2"))) {
            ManagerClient manager = new ManagerClient(pod);
            String admin = manager.adminToken();
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            ExecutorService flood = Executors.newFixedThreadPool(16);
            List<Future<Map<Integer, Integer>>> clients = new ArrayList<>();
            // each attacker on a keep-alive connection of its own, not java.net.http's pool (KeepAliveConnection says why)
            for (int i = 0; i < 16; i++) {
                clients.add(flood.submit(() -> {
                    Map<Integer, Integer> statuses = new HashMap<>();
                    try (KeepAliveConnection connection = new KeepAliveConnection(pod)) {
                        while (System.nanoTime() < until) {
                            statuses.merge(connection.login(ADMIN, "wrong-password"), 1, Integer::sum);
                        }
                    }
                    return statuses;
                }));
            }

            List<Long> probeMillis = new ArrayList<>();
            Thread.sleep(500);
            while (System.nanoTime() < until) {
                for (String path : List.of("/platform/management/health/live", "/platform/management/health/ready",
                        "/apiops/test/healthcheck")) {
                    long start = System.nanoTime();
                    assertThat(TestPods.get(pod, path).statusCode()).as(path).isEqualTo(200);
                    probeMillis.add((System.nanoTime() - start) / 1_000_000);
                }
                long start = System.nanoTime();
                assertThat(manager.get("/apiops/auth/me", admin).statusCode()).isEqualTo(200);
                probeMillis.add((System.nanoTime() - start) / 1_000_000);
                Thread.sleep(250);
            }

            Map<Integer, Integer> statuses = new HashMap<>();
            for (Future<Map<Integer, Integer>> client : clients) {
                client.get(30, TimeUnit.SECONDS).forEach((status, n) -> statuses.merge(status, n, Integer::sum));
            }
            flood.shutdown();
            assertThat(statuses.keySet()).isSubsetOf(401, 429).contains(401);
            assertThat(probeMillis).hasSizeGreaterThanOrEqualTo(4);
            // Every probe answered 200 above. On time: only the median, against a bound that a stalled server misses
            // (before the fix every probe waited behind hashing, over 1 s each) and a busy shared machine does not;
            // the latency figures and the tail are the benchmark's (bench/hostile/login-flood.sh)
            List<Long> sorted = probeMillis.stream().sorted().toList();
            assertThat(sorted.get(sorted.size() / 2)).isLessThan(1_000);
        }
    }

    private static JsonNode parseJson(String body) {
        try {
            return Json.MAPPER.readTree(body);
        } catch (IOException e) {
            throw new AssertionError("not JSON: " + body, e);
        }
    }
}
