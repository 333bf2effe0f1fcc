package io.pylon.manager.deployments;

import io.pylon.core.testing.TestPostgres;
import com.fasterxml.jackson.databind.JsonNode;
import io.pylon.core.server.Pod;
import io.pylon.core.testing.TestPods;
import io.pylon.manager.ManagerClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static io.pylon.manager.ManagerClient.json;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two Manager replicas on one real PostgreSQL: proxies, revisions and deployments written through one are read
 * through the other, a long-poll held by one is answered when a deployment lands on the other, and a stale edit on
 * either is a 412.
 */
class ReplicasOnPostgresTest {
    private static Pod a;
    private static Pod b;
    private static ManagerClient managerA;
    private static ManagerClient managerB;
    private static String token;

    @BeforeAll
    static void start() throws Exception {
        String url = TestPostgres.shared().createDatabase("replicas_" + System.nanoTime());
        Map<String, String> settings = new HashMap<>();
        settings.put("pylon.manager.db.url", url);
        settings.put("pylon.manager.db.user", TestPostgres.USER);
        settings.put("pylon.manager.db.password", TestPostgres.PASSWORD);
        settings.put("pylon.manager.bootstrap.environment-urls", "worker=http://127.0.0.1:1,cache=http://127.0.0.1:2");
        a = ManagerClient.start("manager-a", settings);
        b = ManagerClient.start("manager-b", settings);
        managerA = new ManagerClient(a);
        managerB = new ManagerClient(b);
        token = managerA.adminToken();
    }

    @AfterAll
    static void stop() {
        if (a != null) {
            a.stop();
        }
        if (b != null) {
            b.stop();
        }
    }

    @Test
    void aDeploymentOnOneReplicaAnswersALongPollHeldByTheOther() throws Exception {
        String proxy = "{\"name\":\"shared\",\"pathPrefix\":\"/shared\",\"upstreams\":[\"http://127.0.0.1:9\"]}";
        assertThat(managerA.postJson("/apiops/proxies", token, proxy).statusCode()).isEqualTo(201);
        assertThat(json(managerB.get("/apiops/proxies/shared", token)).path("revision").asInt()).isEqualTo(1);

        HttpResponse<String> current = poll(b, null, "0s");
        String etag = current.headers().firstValue("ETag").orElseThrow();
        CompletableFuture<HttpResponse<String>> held = CompletableFuture.supplyAsync(() -> poll(b, etag, "30s"));
        Thread.sleep(300); // the poll is parked on B
        long deployedAt = System.nanoTime();
        HttpResponse<String> deployed = managerA.postJson("/apiops/environments/test/deployments", token,
                "{\"proxies\":[\"shared\"],\"wait\":\"0s\"}");
        assertThat(deployed.statusCode()).as(deployed.body()).isEqualTo(201);
        HttpResponse<String> answered = held.get(20, TimeUnit.SECONDS);
        long noticedMs = Duration.ofNanos(System.nanoTime() - deployedAt).toMillis();
        assertThat(answered.statusCode()).isEqualTo(200);
        assertThat(answered.headers().firstValue("X-Pylon-Bundle-Version")).hasValue("1");
        assertThat(json(answered).path("proxies").get(0).path("name").asText()).isEqualTo("shared");
        // B notices within its refresh period (250 ms) plus the time to read; generous for a loaded machine
        assertThat(noticedMs).isLessThan(10_000);

        // a stale edit on B after a change on A
        HttpResponse<String> onA = managerA.send("PUT", "/apiops/proxies/shared", token,
                proxy.replace("/shared", "/shared2"));
        assertThat(onA.statusCode()).isEqualTo(200);
        HttpResponse<String> staleOnB = TestPods.send(managerB.builder("/apiops/proxies/shared")
                .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                .header("If-Match", "\"1\"").PUT(HttpRequest.BodyPublishers.ofString(proxy)).build());
        assertThat(staleOnB.statusCode()).isEqualTo(412);

        JsonNode history = json(managerB.get("/apiops/environments/test/deployments/1", token));
        assertThat(history.path("proxies").path("shared").asInt()).isEqualTo(1);
        assertThat(history.path("fromVersion").isNull()).isTrue();
    }

    private static HttpResponse<String> poll(Pod pod, String etag, String wait) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(TestPods.baseUrl(pod)
                        + "/apiops/gateway/bundle?wait=" + wait)).timeout(Duration.ofSeconds(60))
                .header("X-Pylon-Environment-Id", TestPods.ENVIRONMENT_ID).header("X-Pylon-Pod", "replica-probe");
        if (etag != null) {
            request.header("If-None-Match", etag);
        }
        return TestPods.send(request.GET().build());
    }
}
