package io.pylon.manager.auth;

import com.fasterxml.jackson.databind.JsonNode;
import io.pylon.core.server.Pod;
import io.pylon.manager.ManagerClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.util.Map;

import static io.pylon.manager.ManagerClient.json;
import static io.pylon.manager.ApiAssertions.assertBadCredentials;
import static io.pylon.manager.ApiAssertions.assertBadRequest;
import static io.pylon.manager.ApiAssertions.assertInvalidToken;
import static org.assertj.core.api.Assertions.assertThat;

/** Account administration over HTTP. */
class UserEndpointsTest {
    private static Pod pod;
    private static ManagerClient manager;
    private static String admin;

    @BeforeAll
    static void start() {
        pod = ManagerClient.start("manager-users", Map.of());
        manager = new ManagerClient(pod);
        admin = manager.adminToken();
    }

    @AfterAll
    static void stop() {
        pod.stop();
    }

    @Test
    void createListReadAndDelete() {
        HttpResponse<String> created = manager.postJson("/apiops/users", admin,
                "{\"username\":\"Alice\",\"password\":\"Alice-pass-1234\",\"role\":\"viewer\"}");

        assertThat(created.statusCode()).isEqualTo(201);
        JsonNode alice = json(created);
        assertThat(alice.get("username").asText()).isEqualTo("alice");
        assertThat(alice.get("role").asText()).isEqualTo("viewer");
        assertThat(alice.get("enabled").asBoolean()).isTrue();
        assertThat(created.body()).doesNotContain("Alice-pass-1234").doesNotContain("argon2");
        assertThat(manager.get("/apiops/users", admin).body()).contains("\"alice\"").contains("\"admin\"");
        assertThat(manager.get("/apiops/users/alice", admin).statusCode()).isEqualTo(200);
        String token = manager.token("alice", "Alice-pass-1234");

        assertThat(manager.delete("/apiops/users/alice", admin).statusCode()).isEqualTo(204);

        assertThat(manager.get("/apiops/users/alice", admin).statusCode()).isEqualTo(404);
        assertInvalidToken(manager.get("/apiops/auth/me", token));
        assertThat(manager.get("/apiops/audit", admin).body()).contains("user.created").contains("user.deleted");
    }

    @Test
    void aTakenUsernameIsAConflict() {
        manager.createUser(admin, "bob", "Bob-password-123", "viewer");
        HttpResponse<String> again = manager.postJson("/apiops/users", admin,
                "{\"username\":\"BOB\",\"password\":\"Bob-password-123\",\"role\":\"viewer\"}");

        assertThat(again.statusCode()).isEqualTo(409);
        assertThat(json(again).get("error").asText()).isEqualTo("conflict");
    }

    @Test
    void inputIsChecked() {
        assertBadRequest(manager.postJson("/apiops/users", admin, "{\"password\":\"Long-enough-pass\",\"role\":\"viewer\"}"), "username");
        assertBadRequest(manager.postJson("/apiops/users", admin, "{\"username\":\"c\",\"password\":\"short\",\"role\":\"viewer\"}"), "12");
        assertBadRequest(manager.postJson("/apiops/users", admin, "{\"username\":\"c\",\"password\":\"Long-enough-pass\",\"role\":\"root\"}"), "role");
        assertBadRequest(manager.postJson("/apiops/users", admin, "{\"username\":\"c d\",\"password\":\"Long-enough-pass\",\"role\":\"viewer\"}"), "username");
        assertBadRequest(manager.postJson("/apiops/users", admin, "{\"username\":\"c\",\"password\":\"Long-enough-pass\"}"), "role");
        assertBadRequest(manager.send("PATCH", "/apiops/users/admin", admin, "{\"enabled\":\"no\"}"), "enabled");
        HttpResponse<String> form = manager.postForm("/apiops/users", admin, Map.of("username", "c"));
        assertThat(form.statusCode()).isEqualTo(415);
    }

    @Test
    void roleAndEnabledChangeThroughPatch() {
        manager.createUser(admin, "carol", "Carol-pass-1234", "viewer");

        JsonNode changed = json(manager.send("PATCH", "/apiops/users/carol", admin, "{\"role\":\"admin\",\"enabled\":false}"));

        assertThat(changed.get("role").asText()).isEqualTo("admin");
        assertThat(changed.get("enabled").asBoolean()).isFalse();
        assertThat(manager.send("PATCH", "/apiops/users/nobody", admin, "{\"enabled\":true}").statusCode()).isEqualTo(404);
    }

    @Test
    void aPasswordResetReplacesThePasswordAndEndsSessions() {
        manager.createUser(admin, "dave", "Dave-password-1", "viewer");
        String token = manager.token("dave", "Dave-password-1");

        HttpResponse<String> reset = manager.postJson("/apiops/users/dave/password", admin, "{\"password\":\"Dave-password-2\"}");

        assertThat(reset.statusCode()).isEqualTo(204);
        assertInvalidToken(manager.get("/apiops/auth/me", token));
        assertBadCredentials(manager.login("dave", "Dave-password-1"));
        assertThat(manager.login("dave", "Dave-password-2").statusCode()).isEqualTo(200);
        assertBadRequest(manager.postJson("/apiops/users/dave/password", admin, "{\"password\":\"short\"}"), "12");
    }

    @Test
    void theLastEnabledAdminCannotBeLost() {
        Pod single = ManagerClient.start("manager-last-admin", Map.of());
        try {
            ManagerClient client = new ManagerClient(single);
            String token = client.adminToken();

            assertThat(client.send("PATCH", "/apiops/users/admin", token, "{\"enabled\":false}").statusCode()).isEqualTo(409);
            assertThat(client.send("PATCH", "/apiops/users/admin", token, "{\"role\":\"viewer\"}").statusCode()).isEqualTo(409);
            assertThat(client.delete("/apiops/users/admin", token).statusCode()).isEqualTo(409);

            client.createUser(token, "second-admin", "Second-admin-pass", "admin");
            assertThat(client.send("PATCH", "/apiops/users/admin", token, "{\"role\":\"viewer\"}").statusCode()).isEqualTo(200);
        } finally {
            single.stop();
        }
    }
}
