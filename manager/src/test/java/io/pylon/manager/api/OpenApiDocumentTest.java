package io.pylon.manager.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.pylon.core.server.Pod;
import io.pylon.manager.ManagerClient;
import io.pylon.manager.ManagerModule;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/** The served OpenAPI document parses and matches the server: each operation exists, and needs a token unless open. */
class OpenApiDocumentTest {
    private static final Set<String> METHODS = Set.of("get", "post", "put", "patch", "delete");
    private static final ManagerModule MODULE = new ManagerModule();
    private static Pod pod;
    private static ManagerClient manager;

    @BeforeAll
    static void start() {
        pod = ManagerClient.start(MODULE, "manager-openapi", Map.of());
        manager = new ManagerClient(pod);
    }

    @AfterAll
    static void stop() {
        pod.stop();
    }

    @Test
    void everyDocumentedOperationExistsWithTheDocumentedAuthentication() throws Exception {
        HttpResponse<String> served = manager.get("/apiops/openapi.yaml", manager.adminToken());
        assertThat(served.statusCode()).isEqualTo(200);
        assertThat(served.headers().firstValue("Content-Type")).hasValueSatisfying(v -> assertThat(v).startsWith("application/yaml"));
        JsonNode document = new ObjectMapper(new YAMLFactory()).readTree(served.body());
        assertThat(document.get("openapi").asText()).startsWith("3.");

        List<String> checked = new ArrayList<>();
        Iterator<Map.Entry<String, JsonNode>> paths = document.get("paths").fields();
        while (paths.hasNext()) {
            Map.Entry<String, JsonNode> path = paths.next();
            Iterator<Map.Entry<String, JsonNode>> operations = path.getValue().fields();
            while (operations.hasNext()) {
                Map.Entry<String, JsonNode> operation = operations.next();
                if (!METHODS.contains(operation.getKey())) {
                    continue;
                }
                String method = operation.getKey().toUpperCase(Locale.ROOT);
                String concrete = path.getKey().replaceAll("\\{[^}]+}", "x");
                boolean open = operation.getValue().has("security") && operation.getValue().get("security").isEmpty();
                HttpResponse<String> response = manager.send(method, concrete, null, null);

                assertThat(response.statusCode()).as(method + " " + concrete).isNotIn(404, 405);
                if (open) {
                    assertThat(response.statusCode()).as(method + " " + concrete).isNotEqualTo(401);
                } else {
                    assertThat(response.statusCode()).as(method + " " + concrete).isEqualTo(401);
                }
                checked.add(method + " " + path.getKey());
            }
        }
        assertThat(checked).hasSizeGreaterThanOrEqualTo(22)
                .contains("POST /apiops/auth/token", "GET /apiops/test/healthcheck", "GET /apiops/audit");
    }

    /** The other direction: a route someone registers under /apiops/ (the console's too) must be documented. */
    @Test
    void everyRegisteredManagementRouteIsDocumented() throws Exception {
        JsonNode document = new ObjectMapper(new YAMLFactory()).readTree(
                manager.get("/apiops/openapi.yaml", manager.adminToken()).body());
        Set<String> documented = new TreeSet<>();
        document.get("paths").fields().forEachRemaining(path -> path.getValue().fieldNames().forEachRemaining(method -> {
            if (METHODS.contains(method)) {
                documented.add(method.toUpperCase(Locale.ROOT) + " " + anyParameter(path.getKey()));
            }
        }));
        List<String> registered = MODULE.registeredRoutes().stream()
                .filter(route -> route.substring(route.indexOf(' ') + 1).startsWith("/apiops/"))
                .map(OpenApiDocumentTest::anyParameter).toList();

        assertThat(registered).contains("GET /apiops/environments/{}/modules",
                "GET /apiops/environments/{}/diagnostics/{}/{}", "POST /apiops/users");
        assertThat(documented).containsAll(registered);
    }

    private static String anyParameter(String route) {
        return route.replaceAll("\\{[^}]+}", "{}");
    }

    @Test
    void anUndocumentedPathUnderApiopsIsAJson404() {
        HttpResponse<String> response = manager.get("/apiops/nothing-here", null);

        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(response.body()).startsWith("{\"error\":\"not_found\"");
        assertThat(response.headers().firstValue("Cache-Control")).hasValue("no-store");
    }

    @Test
    void theDocumentNeedsAToken() {
        assertThat(manager.get("/apiops/openapi.yaml", null).statusCode()).isEqualTo(401);
        assertThat(manager.send("GET", "/apiops/openapi.yaml", "garbage", null).statusCode()).isEqualTo(401);
        assertThat(TestRequests.head(manager)).isEqualTo(401);
    }

    /** HEAD is registered with every GET. */
    private static final class TestRequests {
        static int head(ManagerClient manager) {
            return io.pylon.core.testing.TestPods.send(manager.builder("/apiops/openapi.yaml")
                    .method("HEAD", HttpRequest.BodyPublishers.noBody()).build()).statusCode();
        }
    }
}
