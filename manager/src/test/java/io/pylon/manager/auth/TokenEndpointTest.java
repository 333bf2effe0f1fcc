package io.pylon.manager.auth;

import com.fasterxml.jackson.databind.JsonNode;
import io.pylon.core.http.PodPaths;
import io.pylon.core.server.Pod;
import io.pylon.core.testing.TestPods;
import io.pylon.manager.ManagerClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.Map;

import static io.pylon.manager.ManagerClient.ADMIN;
import static io.pylon.manager.ManagerClient.ADMIN_PASSWORD;
import static io.pylon.manager.ApiAssertions.assertBadBasicCredentials;
import static io.pylon.manager.ApiAssertions.assertBadCredentials;
import static io.pylon.manager.ApiAssertions.assertError;
import static io.pylon.manager.ManagerClient.json;
import static org.assertj.core.api.Assertions.assertThat;

/** POST /apiops/auth/token over HTTP: every row of the interface's error table and what OAuth 2.0 clients expect. */
class TokenEndpointTest {
    private static Pod pod;
    private static ManagerClient manager;

    @BeforeAll
    static void start() {
        pod = ManagerClient.start("manager-token", Map.of("pylon.manager.token.lifetime", "30m"));
        manager = new ManagerClient(pod);
    }

    @AfterAll
    static void stop() {
        pod.stop();
    }

    @Test
    void formCredentialsGiveABearerTokenWithItsLifetime() {
        HttpResponse<String> response = manager.login(ADMIN, ADMIN_PASSWORD);

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/json");
        assertThat(response.headers().firstValue("Cache-Control")).hasValue("no-store");
        assertThat(response.headers().firstValue("Pragma")).hasValue("no-cache");
        JsonNode body = json(response);
        assertThat(body.get("token_type").asText()).isEqualTo("Bearer");
        assertThat(body.get("expires_in").asLong()).isEqualTo(1800);
        String token = body.get("access_token").asText();
        assertThat(token).startsWith("pylon_at_");
        // 256 random bits in base64url without padding: 43 characters
        assertThat(token.substring("pylon_at_".length())).matches("[A-Za-z0-9_-]{43}");
        assertThat(manager.get("/apiops/auth/me", token).statusCode()).isEqualTo(200);
    }

    @Test
    void httpBasicCredentialsAreAcceptedToo() {
        HttpResponse<String> response = manager.tokenRequest(Map.of("grant_type", "client_credentials"),
                "Authorization", ManagerClient.basic(ADMIN, ADMIN_PASSWORD));

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(json(response).get("access_token").asText()).startsWith("pylon_at_");
    }

    @Test
    void wrongBasicCredentialsGetTheBasicChallengeAndWrongFormCredentialsDoNot() {
        assertBadBasicCredentials(manager.tokenRequest(Map.of("grant_type", "client_credentials"),
                "Authorization", ManagerClient.basic(ADMIN, "wrong-password")));
        assertBadCredentials(manager.login(ADMIN, "wrong-password"));
    }

    @Test
    void usernamesAreCaseInsensitive() {
        assertThat(manager.login("ADMIN", ADMIN_PASSWORD).statusCode()).isEqualTo(200);
    }

    @Test
    void basicAndFormCredentialsTogetherAreRefused() {
        HttpResponse<String> response = manager.tokenRequest(Map.of("grant_type", "client_credentials",
                "client_id", ADMIN, "client_secret", ADMIN_PASSWORD), "Authorization", ManagerClient.basic(ADMIN, ADMIN_PASSWORD));

        assertError(response, 400, "invalid_request");
        assertThat(json(response).get("error_description").asText()).contains("not both");
    }

    @Test
    void anotherGrantTypeIsUnsupported() {
        HttpResponse<String> response = manager.tokenRequest(Map.of("grant_type", "password",
                "client_id", ADMIN, "client_secret", ADMIN_PASSWORD));

        assertError(response, 400, "unsupported_grant_type");
        assertThat(json(response).get("error_description").asText()).contains("client_credentials");
        assertThat(response.headers().firstValue("Cache-Control")).hasValue("no-store");
    }

    @Test
    void missingFieldsAreNamed() {
        HttpResponse<String> noGrant = manager.tokenRequest(Map.of("client_id", ADMIN, "client_secret", ADMIN_PASSWORD));
        assertError(noGrant, 400, "invalid_request");
        assertThat(json(noGrant).get("error_description").asText()).contains("grant_type");

        HttpResponse<String> noId = manager.tokenRequest(Map.of("grant_type", "client_credentials", "client_secret", "x"));
        assertError(noId, 400, "invalid_request");
        assertThat(json(noId).get("error_description").asText()).contains("client_id");

        HttpResponse<String> noSecret = manager.tokenRequest(Map.of("grant_type", "client_credentials", "client_id", ADMIN));
        assertError(noSecret, 400, "invalid_request");
        assertThat(json(noSecret).get("error_description").asText()).contains("client_secret");
    }

    @Test
    void aJsonBodyIsRefused() {
        HttpResponse<String> response = TestPods.send(manager.builder("/apiops/auth/token")
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"grant_type\":\"client_credentials\",\"client_id\":\"admin\","
                        + "\"client_secret\":\"" + ADMIN_PASSWORD + "\"}"))
                .build());

        assertError(response, 400, "invalid_request");
        assertThat(json(response).get("error_description").asText()).contains("application/x-www-form-urlencoded");
    }

    @Test
    void aRepeatedFieldIsRefused() {
        HttpResponse<String> response = TestPods.send(manager.builder("/apiops/auth/token")
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("grant_type=client_credentials&client_id=admin&client_id=other"
                        + "&client_secret=x"))
                .build());

        assertError(response, 400, "invalid_request");
        assertThat(json(response).get("error_description").asText()).contains("client_id");
    }

    @Test
    void anOversizedBodyIsRefused() {
        HttpResponse<String> response = manager.tokenRequest(Map.of("grant_type", "client_credentials",
                "client_id", ADMIN, "client_secret", "x".repeat(40_000)));

        assertThat(response.statusCode()).isEqualTo(413);
        assertThat(json(response).get("error").asText()).isEqualTo("invalid_request");
    }

    @Test
    void wrongPasswordAndUnknownUserAnswerAlike() {
        manager.createUser(manager.adminToken(), "known-user", "Known-user-pass-1", "viewer");
        HttpResponse<String> wrong = manager.login("known-user", "whatever-password");
        HttpResponse<String> unknown = manager.login("nobody-here", "whatever-password");

        for (HttpResponse<String> response : java.util.List.of(wrong, unknown)) {
            assertBadCredentials(response);
        }
        assertThat(wrong.body()).isEqualTo(unknown.body());
    }

    @Test
    void disabledAccountAnswersBadCredentials() {
        String admin = manager.adminToken();
        manager.createUser(admin, "disabled-one", "Disabled-pass-123", "viewer");
        assertThat(manager.send("PATCH", "/apiops/users/disabled-one", admin, "{\"enabled\":false}").statusCode()).isEqualTo(200);

        assertBadCredentials(manager.login("disabled-one", "Disabled-pass-123"));
    }

    @Test
    void aTamperedPasswordHashIsBadCredentialsNeverAServerError() throws Exception {
        String url = "jdbc:h2:mem:token-tampered;DB_CLOSE_DELAY=-1";
        Pod tampered = ManagerClient.start("manager-tampered", Map.of("pylon.manager.db.url", url, "pylon.manager.db.user", "sa"));
        String salt = "$c29tZXNhbHRzb21lc2FsdA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
        try (Connection connection = DriverManager.getConnection(url, "sa", "");
             Statement statement = connection.createStatement()) {
            ManagerClient client = new ManagerClient(tampered);
            for (String hash : java.util.List.of("$argon2id$v=19$m=2147483644,t=2,p=1" + salt,
                    "$argon2id$v=19$m=1024,t=2147483647,p=1" + salt, "$argon2i$v=19$m=1024,t=2,p=1" + salt,
                    "$argon2id$v=19$m=1024,t=2,p=1$%%%$%%%", "")) {
                statement.executeUpdate("UPDATE users SET password_hash = '" + hash + "' WHERE username = 'admin'");

                HttpResponse<String> response = client.login(ADMIN, ADMIN_PASSWORD);

                assertBadCredentials(response);
                if (!hash.isEmpty()) {
                    assertThat(response.body()).doesNotContain(hash);
                }
            }
        } finally {
            tampered.stop();
        }
    }

    @Test
    void unexpectedFailureIsServerErrorWithoutInternals() throws Exception {
        String url = "jdbc:h2:mem:token-failure;DB_CLOSE_DELAY=-1";
        Pod broken = ManagerClient.start("manager-broken", Map.of("pylon.manager.db.url", url, "pylon.manager.db.user", "sa"));
        try (Connection connection = DriverManager.getConnection(url, "sa", "");
             Statement statement = connection.createStatement()) {
            statement.execute("SHUTDOWN");
        }
        try {
            HttpResponse<String> response = new ManagerClient(broken).login(ADMIN, ADMIN_PASSWORD);

            assertError(response, 500, "server_error");
            assertThat(json(response).get("error_description").asText()).contains("unexpected error")
                    .doesNotContainIgnoringCase("sql").doesNotContainIgnoringCase("h2");
            assertThat(response.headers().firstValue("Cache-Control")).hasValue("no-store");
            HttpResponse<String> ready = TestPods.get(broken, PodPaths.defaults().ready());
            assertThat(ready.statusCode()).isEqualTo(503);
            assertThat(json(ready).get("checks").get("database").get("status").asText()).isEqualTo("DOWN");
            assertThat(ready.body()).doesNotContain("jdbc:");
        } finally {
            broken.stop();
        }
    }
}
