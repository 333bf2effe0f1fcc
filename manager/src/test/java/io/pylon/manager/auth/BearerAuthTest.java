package io.pylon.manager.auth;

import com.fasterxml.jackson.databind.JsonNode;
import io.pylon.core.server.Pod;
import io.pylon.core.testing.TestPods;
import io.pylon.manager.ManagerClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.Map;

import static io.pylon.manager.ApiAssertions.assertBadCredentials;
import static io.pylon.manager.ApiAssertions.assertBadRequest;
import static io.pylon.manager.ApiAssertions.assertInvalidToken;
import static io.pylon.manager.ManagerClient.json;
import static org.assertj.core.api.Assertions.assertThat;

/** Bearer checks over HTTP: RFC 6750 answers, expiry, revocation, disabled and locked accounts, roles. */
class BearerAuthTest {
    private static Pod pod;
    private static ManagerClient manager;
    private static String admin;

    @BeforeAll
    static void start() {
        pod = ManagerClient.start("manager-bearer", Map.of("pylon.manager.token.lifetime", "1h",
                "pylon.manager.auth.max-failures", "3", "pylon.manager.auth.lock-duration", "1h"));
        manager = new ManagerClient(pod);
        admin = manager.adminToken();
    }

    @AfterAll
    static void stop() {
        pod.stop();
    }

    @Test
    void healthcheckNeedsNoToken() {
        HttpResponse<String> response = TestPods.get(pod, "/apiops/test/healthcheck");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("OK");
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(v -> assertThat(v).startsWith("text/plain"));
    }

    @Test
    void missingTokenIs401WithAChallenge() {
        HttpResponse<String> response = manager.get("/apiops/auth/me", null);

        assertThat(response.statusCode()).isEqualTo(401);
        assertThat(response.headers().firstValue("WWW-Authenticate")).hasValue("Bearer realm=\"pylon\"");
        assertThat(json(response).get("error").asText()).isEqualTo("unauthorized");
    }

    @Test
    void anotherSchemeCountsAsMissing() {
        HttpResponse<String> response = TestPods.get(pod, "/apiops/auth/me", "Authorization",
                ManagerClient.basic(ManagerClient.ADMIN, ManagerClient.ADMIN_PASSWORD));

        assertThat(response.statusCode()).isEqualTo(401);
        assertThat(response.headers().firstValue("WWW-Authenticate")).hasValue("Bearer realm=\"pylon\"");
    }

    @Test
    void unknownTokenIsInvalidToken() {
        for (String token : new String[]{"pylon_at_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "garbage", "pylon_pat_x"}) {
            assertInvalidToken(manager.get("/apiops/auth/me", token));
        }
    }

    @Test
    void meSaysWhoTheTokenBelongsTo() {
        HttpResponse<String> response = manager.get("/apiops/auth/me", admin);

        assertThat(response.statusCode()).isEqualTo(200);
        JsonNode me = json(response);
        assertThat(me.get("username").asText()).isEqualTo("admin");
        assertThat(me.get("role").asText()).isEqualTo("admin");
        assertThat(me.get("enabled").asBoolean()).isTrue();
        assertThat(me.has("passwordHash")).isFalse();
        assertThat(response.body()).doesNotContain("argon2");
        assertThat(response.headers().firstValue("Cache-Control")).hasValue("no-store");
    }

    @Test
    void aRevokedTokenFailsOnItsNextUse() {
        String token = manager.adminToken();
        assertThat(manager.get("/apiops/auth/me", token).statusCode()).isEqualTo(200);

        HttpResponse<String> revoked = manager.postForm("/apiops/auth/revoke", token, Map.of("token", token));

        assertThat(revoked.statusCode()).isEqualTo(200);
        assertThat(revoked.body()).isEqualTo("{}");
        assertInvalidToken(manager.get("/apiops/auth/me", token));
    }

    @Test
    void revokingAnUnknownTokenIs200AndRevokingNeedsTheField() {
        assertThat(manager.postForm("/apiops/auth/revoke", admin, Map.of("token", "pylon_at_unknown")).statusCode())
                .isEqualTo(200);
        HttpResponse<String> missing = manager.postForm("/apiops/auth/revoke", admin, Map.of());
        assertThat(missing.statusCode()).isEqualTo(400);
        assertThat(json(missing).get("error_description").asText()).contains("token");
    }

    @Test
    void aViewerCannotRevokeSomeoneElsesToken() {
        manager.createUser(admin, "revoker", "Revoker-pass-123", "viewer");
        String viewer = manager.token("revoker", "Revoker-pass-123");
        String other = manager.adminToken();

        assertThat(manager.postForm("/apiops/auth/revoke", viewer, Map.of("token", other)).statusCode()).isEqualTo(200);

        assertThat(manager.get("/apiops/auth/me", other).statusCode()).isEqualTo(200);
    }

    @Test
    void anExpiredAccessTokenIsRefused() throws Exception {
        Pod shortLived = ManagerClient.start("manager-expiry", Map.of("pylon.manager.token.lifetime", "1s"));
        try {
            ManagerClient client = new ManagerClient(shortLived);
            HttpResponse<String> issued = client.login(ManagerClient.ADMIN, ManagerClient.ADMIN_PASSWORD);
            assertThat(json(issued).get("expires_in").asLong()).isEqualTo(1);
            String token = json(issued).get("access_token").asText();
            assertThat(client.get("/apiops/auth/me", token).statusCode()).isEqualTo(200);

            Thread.sleep(1_200);

            assertInvalidToken(client.get("/apiops/auth/me", token));
        } finally {
            shortLived.stop();
        }
    }

    @Test
    void personalTokensAreShownOnceListedWithoutValueAndRevocable() {
        HttpResponse<String> created = manager.postJson("/apiops/tokens", admin, "{\"name\":\"ci\",\"expiresAt\":null}");

        assertThat(created.statusCode()).isEqualTo(201);
        JsonNode body = json(created);
        String value = body.get("token").asText();
        String id = body.get("id").asText();
        assertThat(value).startsWith("pylon_pat_");
        assertThat(body.get("expiresAt").isNull()).isTrue();
        assertThat(manager.get("/apiops/auth/me", value).statusCode()).isEqualTo(200);

        HttpResponse<String> list = manager.get("/apiops/tokens", admin);
        assertThat(list.body()).contains(id).contains("\"ci\"").doesNotContain(value).doesNotContain("pylon_pat_");

        assertThat(manager.delete("/apiops/tokens/" + id, admin).statusCode()).isEqualTo(204);
        assertInvalidToken(manager.get("/apiops/auth/me", value));
        assertThat(manager.get("/apiops/tokens", admin).body()).doesNotContain(id);
        assertThat(manager.delete("/apiops/tokens/" + id, admin).statusCode()).isEqualTo(404);
    }

    @Test
    void aPersonalTokenExpiresAtItsDate() throws Exception {
        String expiresAt = Instant.now().plusMillis(1_500).toString();
        HttpResponse<String> created = manager.postJson("/apiops/tokens", admin,
                "{\"name\":\"short\",\"expiresAt\":\"" + expiresAt + "\"}");
        assertThat(created.statusCode()).isEqualTo(201);
        String value = json(created).get("token").asText();
        assertThat(manager.get("/apiops/auth/me", value).statusCode()).isEqualTo(200);

        Thread.sleep(1_700);

        assertInvalidToken(manager.get("/apiops/auth/me", value));
    }

    @Test
    void personalTokenInputIsChecked() {
        assertBadRequest(manager.postJson("/apiops/tokens", admin, "{\"expiresAt\":null}"), "name");
        assertBadRequest(manager.postJson("/apiops/tokens", admin, "{\"name\":\"x\",\"expiresAt\":\"tomorrow\"}"), "expiresAt");
        assertBadRequest(manager.postJson("/apiops/tokens", admin, "{\"name\":\"x\",\"expiresAt\":\"2001-01-01T00:00:00Z\"}"), "future");
        assertBadRequest(manager.postJson("/apiops/tokens", admin, "{\"name\":\"x\",\"scope\":\"all\"}"), "scope");
        assertBadRequest(manager.postJson("/apiops/tokens", admin, "{not json"), "JSON");
        assertThat(manager.postJson("/apiops/tokens", admin, "[]").statusCode()).isEqualTo(400);
    }

    @Test
    void disablingAUserKillsItsTokensAndReEnablingDoesNotRevive() {
        manager.createUser(admin, "to-disable", "To-disable-pass-1", "viewer");
        String access = manager.token("to-disable", "To-disable-pass-1");
        String personal = json(manager.postJson("/apiops/tokens", access, "{\"name\":\"p\"}")).get("token").asText();

        manager.send("PATCH", "/apiops/users/to-disable", admin, "{\"enabled\":false}");

        assertInvalidToken(manager.get("/apiops/auth/me", access));
        assertInvalidToken(manager.get("/apiops/auth/me", personal));
        manager.send("PATCH", "/apiops/users/to-disable", admin, "{\"enabled\":true}");
        assertInvalidToken(manager.get("/apiops/auth/me", access));
        assertThat(manager.get("/apiops/auth/me", manager.token("to-disable", "To-disable-pass-1")).statusCode()).isEqualTo(200);
    }

    @Test
    void lockoutAfterConsecutiveFailuresAnswersLikeAWrongPasswordUntilUnlockedAndKeepsTokens() {
        manager.createUser(admin, "to-lock", "To-lock-pass-123", "viewer");
        String before = manager.token("to-lock", "To-lock-pass-123");
        for (int i = 0; i < 3; i++) {
            assertBadCredentials(manager.login("to-lock", "wrong-password-" + i));
        }

        assertBadCredentials(manager.login("to-lock", "To-lock-pass-123"));
        // the lock stops password sign-in only: a token issued before keeps working
        assertThat(manager.get("/apiops/auth/me", before).statusCode()).isEqualTo(200);
        JsonNode user = json(manager.get("/apiops/users/to-lock", admin));
        assertThat(user.get("locked").asBoolean()).isTrue();
        assertThat(manager.get("/apiops/audit", admin).body()).contains("account.locked");

        HttpResponse<String> unlocked = manager.postJson("/apiops/users/to-lock/unlock", admin, null);

        assertThat(unlocked.statusCode()).isEqualTo(200);
        assertThat(json(unlocked).get("locked").asBoolean()).isFalse();
        assertThat(manager.login("to-lock", "To-lock-pass-123").statusCode()).isEqualTo(200);
        assertThat(manager.get("/apiops/auth/me", before).statusCode()).isEqualTo(200);
    }

    @Test
    void aSuccessfulLoginResetsTheFailureCount() {
        manager.createUser(admin, "resets", "Resets-pass-1234", "viewer");
        for (int round = 0; round < 3; round++) {
            manager.login("resets", "wrong-one");
            manager.login("resets", "wrong-two");
            assertThat(manager.login("resets", "Resets-pass-1234").statusCode()).isEqualTo(200);
        }
    }

    @Test
    void aLockExpiresByItself() throws Exception {
        Pod pod2 = ManagerClient.start("manager-lock-expiry", Map.of("pylon.manager.auth.max-failures", "1",
                "pylon.manager.auth.lock-duration", "1s"));
        try {
            ManagerClient client = new ManagerClient(pod2);
            assertBadCredentials(client.login(ManagerClient.ADMIN, "wrong-password"));
            assertBadCredentials(client.login(ManagerClient.ADMIN, ManagerClient.ADMIN_PASSWORD));

            Thread.sleep(1_200);

            assertThat(client.login(ManagerClient.ADMIN, ManagerClient.ADMIN_PASSWORD).statusCode()).isEqualTo(200);
        } finally {
            pod2.stop();
        }
    }

    @Test
    void aViewerIsForbiddenFromAdminEndpoints() {
        manager.createUser(admin, "looker", "Looker-pass-1234", "viewer");
        String viewer = manager.token("looker", "Looker-pass-1234");

        for (HttpResponse<String> response : java.util.List.of(
                manager.get("/apiops/users", viewer),
                manager.get("/apiops/audit", viewer),
                manager.postJson("/apiops/users", viewer, "{\"username\":\"x\",\"password\":\"xxxxxxxxxxxxx\",\"role\":\"admin\"}"),
                manager.postJson("/apiops/environments", viewer, "{}"),
                manager.delete("/apiops/users/admin", viewer))) {
            assertThat(response.statusCode()).as(response.uri().toString()).isEqualTo(403);
            assertThat(json(response).get("error").asText()).isEqualTo("insufficient_scope");
            assertThat(response.headers().firstValue("WWW-Authenticate")).hasValueSatisfying(
                    v -> assertThat(v).contains("error=\"insufficient_scope\""));
        }
        assertThat(manager.get("/apiops/environments", viewer).statusCode()).isEqualTo(200);
        assertThat(manager.get("/apiops/auth/me", viewer).statusCode()).isEqualTo(200);
    }

    @Test
    void aRoleChangeTakesEffectOnTheNextRequest() {
        manager.createUser(admin, "promoted", "Promoted-pass-12", "viewer");
        String token = manager.token("promoted", "Promoted-pass-12");
        assertThat(manager.get("/apiops/users", token).statusCode()).isEqualTo(403);

        manager.send("PATCH", "/apiops/users/promoted", admin, "{\"role\":\"admin\"}");

        assertThat(manager.get("/apiops/users", token).statusCode()).isEqualTo(200);
    }
}
