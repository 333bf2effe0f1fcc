package io.pylon.manager.environments;

import com.fasterxml.jackson.databind.JsonNode;
import io.pylon.core.server.Pod;
import io.pylon.manager.ManagerClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.util.Map;

import static io.pylon.manager.ManagerClient.json;
import static io.pylon.manager.ApiAssertions.assertBadRequest;
import static org.assertj.core.api.Assertions.assertThat;

/** Environments over HTTP: admins manage them and see the ID, viewers read them without it. */
class EnvironmentEndpointsTest {
    private static final String URLS = "\"urls\":{\"worker\":\"http://127.0.0.4:8091/\",\"cache\":\"http://127.0.0.2:8090\"}";

    private static Pod pod;
    private static ManagerClient manager;
    private static String admin;
    private static String viewer;

    @BeforeAll
    static void start() {
        pod = ManagerClient.start("manager-environments", Map.of());
        manager = new ManagerClient(pod);
        admin = manager.adminToken();
        manager.createUser(admin, "viewer", "Viewer-pass-1234", "viewer");
        viewer = manager.token("viewer", "Viewer-pass-1234");
    }

    @AfterAll
    static void stop() {
        pod.stop();
    }

    @Test
    void createReadUpdateRotateDelete() {
        HttpResponse<String> created = manager.postJson("/apiops/environments", admin,
                "{\"name\":\"staging\",\"type\":\"staging\",\"description\":\"Pre-production\"," + URLS + "}");

        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        assertThat(created.headers().firstValue("Location")).hasValue("/apiops/environments/staging");
        JsonNode staging = json(created);
        String id = staging.get("environmentId").asText();
        assertThat(id).matches("[0-9a-f]{24}");
        assertThat(staging.get("urls").get("worker").asText()).isEqualTo("http://127.0.0.4:8091");
        assertThat(staging.get("urls").get("manager").isNull()).isTrue();

        HttpResponse<String> replaced = manager.send("PUT", "/apiops/environments/staging", admin,
                "{\"name\":\"staging\",\"type\":\"production\",\"environmentId\":\"" + id + "\","
                        + "\"urls\":{\"worker\":\"https://gw.example.test\",\"cache\":\"http://cache:8090\",\"portal\":\"http://portal:8080\"}}");
        assertThat(replaced.statusCode()).as(replaced.body()).isEqualTo(200);
        assertThat(json(replaced).get("type").asText()).isEqualTo("production");
        assertThat(json(replaced).get("description").asText()).isEmpty();
        assertThat(json(replaced).get("urls").get("portal").asText()).isEqualTo("http://portal:8080");
        assertThat(json(replaced).get("environmentId").asText()).isEqualTo(id);

        HttpResponse<String> rotated = manager.postJson("/apiops/environments/staging/rotate-id", admin, null);
        assertThat(rotated.statusCode()).isEqualTo(200);
        String newId = json(rotated).get("environmentId").asText();
        assertThat(newId).matches("[0-9a-f]{24}").isNotEqualTo(id);
        assertThat(json(manager.get("/apiops/environments/staging", admin)).get("environmentId").asText()).isEqualTo(newId);

        assertThat(manager.delete("/apiops/environments/staging", admin).statusCode()).isEqualTo(204);
        assertThat(manager.get("/apiops/environments/staging", admin).statusCode()).isEqualTo(404);
        String audit = manager.get("/apiops/audit", admin).body();
        assertThat(audit).contains("environment.created").contains("environment.updated")
                .contains("environment.id-rotated").contains("environment.deleted")
                .doesNotContain(id).doesNotContain(newId);
    }

    @Test
    void viewersSeeEnvironmentsWithoutTheirId() {
        String id = "00112233445566778899aabb";
        assertThat(manager.postJson("/apiops/environments", admin,
                "{\"name\":\"shared\",\"type\":\"test\",\"environmentId\":\"" + id + "\"," + URLS + "}").statusCode()).isEqualTo(201);

        HttpResponse<String> one = manager.get("/apiops/environments/shared", viewer);
        HttpResponse<String> all = manager.get("/apiops/environments", viewer);

        assertThat(one.statusCode()).isEqualTo(200);
        assertThat(json(one).has("environmentId")).isFalse();
        assertThat(json(one).get("urls").get("cache").asText()).isEqualTo("http://127.0.0.2:8090");
        assertThat(all.body()).contains("\"shared\"").doesNotContain(id).doesNotContain("environmentId");
        assertThat(json(manager.get("/apiops/environments/shared", admin)).get("environmentId").asText()).isEqualTo(id);
        assertThat(manager.get("/apiops/environments", admin).body()).contains(id);
        assertThat(manager.postJson("/apiops/environments/shared/rotate-id", viewer, null).statusCode()).isEqualTo(403);
        assertThat(manager.send("PUT", "/apiops/environments/shared", viewer, "{}").statusCode()).isEqualTo(403);
        assertThat(manager.delete("/apiops/environments/shared", viewer).statusCode()).isEqualTo(403);
    }

    @Test
    void inputIsChecked() {
        assertBadRequest(manager.postJson("/apiops/environments", admin, "{\"type\":\"test\"," + URLS + "}"), "name");
        assertBadRequest(manager.postJson("/apiops/environments", admin, "{\"name\":\"Bad_Name\",\"type\":\"test\"," + URLS + "}"), "name");
        assertBadRequest(manager.postJson("/apiops/environments", admin, "{\"name\":\"e1\",\"type\":\"prod\"," + URLS + "}"), "type");
        assertBadRequest(manager.postJson("/apiops/environments", admin, "{\"name\":\"e1\",\"type\":\"test\"}"), "urls");
        assertBadRequest(manager.postJson("/apiops/environments", admin,
                "{\"name\":\"e1\",\"type\":\"test\",\"urls\":{\"worker\":\"http://w:1\"}}"), "cache");
        assertBadRequest(manager.postJson("/apiops/environments", admin,
                "{\"name\":\"e1\",\"type\":\"test\",\"urls\":{\"worker\":\"ftp://w\",\"cache\":\"http://c\"}}"), "worker");
        assertBadRequest(manager.postJson("/apiops/environments", admin,
                "{\"name\":\"e1\",\"type\":\"test\",\"urls\":{\"worker\":\"http://w\",\"cache\":\"http://c\",\"db\":\"http://d\"}}"), "db");
        assertBadRequest(manager.postJson("/apiops/environments", admin,
                "{\"name\":\"e1\",\"type\":\"test\",\"environmentId\":\"XYZ\"," + URLS + "}"), "environmentId");

        assertThat(manager.postJson("/apiops/environments", admin, "{\"name\":\"dup\",\"type\":\"test\"," + URLS + "}").statusCode()).isEqualTo(201);
        assertThat(manager.postJson("/apiops/environments", admin, "{\"name\":\"dup\",\"type\":\"test\"," + URLS + "}").statusCode()).isEqualTo(409);
        assertBadRequest(manager.send("PUT", "/apiops/environments/dup", admin,
                "{\"type\":\"test\",\"environmentId\":\"00112233445566778899aabb\"," + URLS + "}"), "rotate-id");
        assertBadRequest(manager.send("PUT", "/apiops/environments/dup", admin,
                "{\"name\":\"other\",\"type\":\"test\"," + URLS + "}"), "name");
        assertThat(manager.send("PUT", "/apiops/environments/missing", admin, "{\"type\":\"test\"," + URLS + "}").statusCode()).isEqualTo(404);
    }
}
