package io.pylon.manager.portal;

import com.fasterxml.jackson.databind.JsonNode;
import io.pylon.core.server.Pod;
import io.pylon.manager.ManagerClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.util.Map;

import static io.pylon.manager.ManagerClient.json;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the Manager UI's Developer portal screen calls, by role: admins list and act on developers and subscriptions
 * (filters checked), operators publish, viewers read publications only; the Portal's credential is refused here;
 * changes are audited.
 */
class PortalAdminApiTest {
    private static Pod pod;
    private static ManagerClient manager;
    private static String admin;
    private static String operator;
    private static String viewer;
    private static String portal;

    @BeforeAll
    static void start() {
        pod = ManagerClient.start("manager-portal-admin", Map.of());
        manager = new ManagerClient(pod);
        admin = manager.adminToken();
        manager.createUser(admin, "operator", "Operator-pass-1234", "operator");
        manager.createUser(admin, "viewer", "Viewer-pass-12345", "viewer");
        manager.createUser(admin, "portal", "Portal-pass-123456", "portal");
        operator = manager.token("operator", "Operator-pass-1234");
        viewer = manager.token("viewer", "Viewer-pass-12345");
        portal = manager.token("portal", "Portal-pass-123456");
        HttpResponse<String> proxy = manager.postJson("/apiops/proxies", admin,
                "{\"name\":\"orders\",\"pathPrefix\":\"/orders\",\"upstreams\":[\"http://127.0.0.1:9\"]}");
        assertThat(proxy.statusCode()).as(proxy.body()).isEqualTo(201);
    }

    @AfterAll
    static void stop() {
        pod.stop();
    }

    @Test
    void rolesDecideWhoReadsAndChanges() {
        assertThat(manager.get("/apiops/developers", viewer).statusCode()).isEqualTo(403);
        assertThat(manager.get("/apiops/subscriptions", operator).statusCode()).isEqualTo(403);
        assertThat(manager.get("/apiops/developers", portal).statusCode()).isEqualTo(403);
        assertThat(manager.get("/apiops/publications", viewer).statusCode()).isEqualTo(200);
        assertThat(manager.send("PUT", "/apiops/publications/orders", viewer, "{\"autoApprove\":true}").statusCode())
                .isEqualTo(403);
        assertThat(manager.postJson("/apiops/subscriptions/x/approve", operator, "{}").statusCode()).isEqualTo(403);
        assertThat(manager.postJson("/apiops/developers/x/disable", operator, "{}").statusCode()).isEqualTo(403);

        HttpResponse<String> published = manager.send("PUT", "/apiops/publications/orders", operator,
                "{\"autoApprove\":false}");
        assertThat(published.statusCode()).as(published.body()).isEqualTo(200);
        assertThat(json(manager.get("/apiops/publications", viewer)).path("publications").get(0).path("autoApprove")
                .asBoolean(true)).isFalse();
        JsonNode events = json(manager.get("/apiops/audit", admin)).path("events");
        assertThat(events.findValuesAsText("action")).contains("proxy.published");
    }

    @Test
    void filtersAndUnknownsAreAnsweredWithTheirReason() {
        HttpResponse<String> badFilter = manager.get("/apiops/subscriptions?status=paused", admin);
        assertThat(badFilter.statusCode()).isEqualTo(400);
        assertThat(badFilter.body()).contains("status");
        assertThat(manager.get("/apiops/developers?status=gone", admin).statusCode()).isEqualTo(400);
        assertThat(manager.get("/apiops/developers?status=pending", admin).statusCode()).isEqualTo(200);
        assertThat(manager.postJson("/apiops/developers/nobody/approve", admin, "{}").statusCode()).isEqualTo(404);
        assertThat(manager.postJson("/apiops/subscriptions/nothing/suspend", admin, "{}").statusCode()).isEqualTo(404);
        HttpResponse<String> badAction = manager.postJson("/apiops/subscriptions/nothing/pause", admin, "{}");
        assertThat(badAction.statusCode()).isEqualTo(404);
        assertThat(badAction.body()).contains("pause");
        assertThat(manager.send("PUT", "/apiops/publications/nope", admin, "{\"autoApprove\":true}").statusCode())
                .isEqualTo(404);
        assertThat(manager.send("PUT", "/apiops/publications/orders", admin, "{\"autoApprove\":\"yes\"}").statusCode())
                .isEqualTo(400);
    }

    @Test
    void anAdminApprovesAPendingSubscriptionAndTheKeySetFollows() throws Exception {
        assertThat(manager.send("PUT", "/apiops/publications/orders", admin, "{\"autoApprove\":false}").statusCode())
                .isEqualTo(200);
        String developer = "{\"email\":\"admin-test@example.com\",\"password\":\"dev-Passw0rd-12345\"}";
        assertThat(manager.postJson("/apiops/portal/developers", portal, developer).statusCode()).isEqualTo(202);
        JsonNode pending = json(manager.get("/apiops/developers?status=pending", admin)).path("developers");
        assertThat(pending.findValuesAsText("email")).contains("admin-test@example.com");
        String id = "";
        for (JsonNode d : pending) {
            if (d.path("email").asText().equals("admin-test@example.com")) {
                id = d.path("id").asText();
            }
        }
        assertThat(json(manager.postJson("/apiops/developers/" + id + "/approve", admin, "{}")).path("status").asText())
                .isEqualTo("active");

        HttpResponse<String> session = manager.postJson("/apiops/portal/sessions", portal, developer);
        assertThat(session.statusCode()).as(session.body()).isEqualTo(201);
        String token = json(session).path("session").asText();
        String csrf = json(session).path("csrf").asText();
        HttpResponse<String> app = io.pylon.core.testing.TestPods.send(manager.builder("/apiops/portal/applications")
                .header("Authorization", "Bearer " + portal).header("Content-Type", "application/json")
                .header("X-Pylon-Developer-Session", token).header("X-Pylon-Csrf", csrf)
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString("{\"name\":\"app\"}")).build());
        String appId = json(app).path("id").asText();
        HttpResponse<String> subscribed = io.pylon.core.testing.TestPods.send(manager.builder("/apiops/portal/applications/" + appId
                        + "/subscriptions").header("Authorization", "Bearer " + portal)
                .header("Content-Type", "application/json").header("X-Pylon-Developer-Session", token)
                .header("X-Pylon-Csrf", csrf)
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString("{\"proxy\":\"orders\"}")).build());
        assertThat(json(subscribed).path("status").asText()).isEqualTo("pending");

        JsonNode listed = json(manager.get("/apiops/subscriptions?status=pending", admin)).path("subscriptions").get(0);
        assertThat(listed.path("applicationName").asText()).isEqualTo("app");
        assertThat(listed.path("developerEmail").asText()).isEqualTo("admin-test@example.com");
        String subscription = listed.path("id").asText();
        assertThat(json(manager.postJson("/apiops/subscriptions/" + subscription + "/approve", admin, "{}"))
                .path("status").asText()).isEqualTo("active");
        assertThat(json(manager.get("/apiops/subscriptions?status=pending", admin)).path("subscriptions")).isEmpty();
        assertThat(manager.postJson("/apiops/subscriptions/" + subscription + "/revoke", admin, "{}").statusCode())
                .isEqualTo(200);
        assertThat(manager.postJson("/apiops/subscriptions/" + subscription + "/approve", admin, "{}").statusCode())
                .isEqualTo(409);
        assertThat(json(manager.get("/apiops/audit", admin)).path("events").findValuesAsText("action"))
                .contains("developer.active", "subscription.active", "subscription.revoked");
    }
}
