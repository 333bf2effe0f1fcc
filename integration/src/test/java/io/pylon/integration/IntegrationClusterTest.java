package io.pylon.integration;

import io.pylon.core.testing.TestPostgres;
import com.fasterxml.jackson.databind.JsonNode;
import io.pylon.core.server.Pod;
import io.pylon.core.testing.ChildPods;
import io.pylon.core.testing.TestPods;
import io.pylon.manager.ManagerModule;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two Integration pods in their own JVMs sharing a real PostgreSQL: each due run runs once, a pod killed mid-run has
 * its run finished by the other, and no scheduled instant is lost while every pod is down.
 */
class IntegrationClusterTest {
    static final String PASSWORD = "integration-cluster-Pa55word";
    static final List<String> PODS = List.of("integration-a", "integration-b");
    static Stub stub;
    static Pod manager;
    static ChildPods pods;
    static String token;

    @BeforeAll
    static void start() throws Exception {
        stub = new Stub();
        manager = TestPods.start(new ManagerModule(), "manager-0", Map.of("pylon.manager.admin.password", PASSWORD));
        TestPostgres postgres = TestPostgres.shared();
        String url = postgres.createDatabase("integration_cluster");
        Map<String, String> common = new HashMap<>();
        common.put("pylon.integration.db.url", url);
        common.put("pylon.integration.db.user", TestPostgres.USER);
        common.put("pylon.integration.db.password", TestPostgres.PASSWORD);
        common.put("pylon.integration.manager-url", TestPods.baseUrl(manager));
        common.put("pylon.integration.allowed-hosts", "127.0.47.0/24");
        common.put("pylon.integration.polling-interval", "100ms");
        common.put("pylon.integration.heartbeat-interval", "500ms");
        common.put("pylon.integration.missed-heartbeats", "4");
        pods = childPods(common);
        token = Api.token(TestPods.baseUrl(manager), PASSWORD);
    }

    private static ChildPods childPods(Map<String, String> common) throws Exception {
        Map<String, List<String>> extra = new HashMap<>();
        for (String pod : PODS) {
            List<String> args = new ArrayList<>();
            common.forEach((k, v) -> args.add(k + "=" + v));
            extra.put(pod, args);
        }
        return new ChildPods(PODS, extra, Map.of(), IntegrationChildPod.class.getName(), List.of());
    }

    @AfterAll
    static void stop() {
        if (pods != null) {
            pods.close();
        }
        if (manager != null) {
            manager.close();
        }
        if (stub != null) {
            stub.close();
        }
    }

    private static Api api(String pod) {
        return new Api(pods.baseUrl(pod), token);
    }

    @Test
    void aHundredDueRunsOnTwoPodsRunOnceEach() throws Exception {
        api("integration-a").create("""
                name: count
                concurrency: allow
                steps:
                  - {id: tell, http: {method: POST, url: "%s", body: '$run.id'}}
                """.formatted(stub.url("/count")));
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < 100; i++) {
            Api.Answer started = api(PODS.get(i % 2)).send("POST", "/platform/integration/flows/count/runs", null);
            assertThat(started.status()).as(started.text()).isEqualTo(202);
            ids.add(started.json().path("id").asText());
        }
        JsonNode runs = api("integration-b").await("/platform/integration/flows/count/runs?limit=500",
                r -> r.path("runs").size() == 100 && allFinished(r), Duration.ofSeconds(120));
        List<String> bodies = stub.at("/count").stream().map(r -> r.body().replace("\"", "")).toList();
        assertThat(bodies).hasSize(100);
        assertThat(new HashSet<>(bodies)).isEqualTo(ids);
        Set<String> ranOn = new TreeSet<>();
        for (JsonNode run : runs.path("runs")) {
            assertThat(run.path("status").asText()).isEqualTo("succeeded");
            assertThat(run.path("attempts").asInt()).isEqualTo(1);
            ranOn.add(run.path("pod").asText());
        }
        assertThat(ranOn).containsExactlyElementsOf(PODS);
    }

    private static boolean allFinished(JsonNode runs) {
        for (JsonNode run : runs.path("runs")) {
            if (!Set.of("succeeded", "failed", "skipped").contains(run.path("status").asText())) {
                return false;
            }
        }
        return true;
    }

    @Test
    void aPodKilledMidRunHasItsRunFinishedOnceByTheOther() throws Exception {
        api("integration-a").create("""
                name: slow
                steps:
                  - {id: wait, http: {url: "%s", timeout: 120s}}
                  - {id: done, http: {method: POST, url: "%s", body: '$run.id'}}
                """.formatted(stub.url("/slow"), stub.url("/done")));
        Api.Answer started = api("integration-a").send("POST", "/platform/integration/flows/slow/runs", null);
        String runId = started.json().path("id").asText();
        assertThat(stub.slowEntered.await(60, TimeUnit.SECONDS)).isTrue();
        JsonNode running = api("integration-b").get("/platform/integration/runs/" + runId).json();
        String holder = running.path("pod").asText();
        String other = PODS.get(0).equals(holder) ? PODS.get(1) : PODS.get(0);
        pods.kill(holder);
        try {
            JsonNode done = api(other).await("/platform/integration/runs/" + runId,
                    r -> r.path("status").asText().equals("succeeded"), Duration.ofSeconds(90));
            assertThat(done.path("pod").asText()).isEqualTo(other);
            assertThat(done.path("attempts").asInt()).isEqualTo(2);
            assertThat(stub.at("/done")).extracting(r -> r.body().replace("\"", "")).containsExactly(runId);
        } finally {
            pods.restart(holder);
        }
    }

    @Test
    void noScheduledInstantIsLostWhileEveryPodIsDown() throws Exception {
        api("integration-a").create("""
                name: ticks
                trigger: {schedule: {cron: "* * * * * ?", timezone: UTC, misfire: run-all}}
                steps:
                  - {id: tell, http: {method: POST, url: "%s", body: '$run.scheduledAt'}}
                """.formatted(stub.url("/ticks")));
        api("integration-a").await("/platform/integration/flows/ticks/runs", r -> r.path("runs").size() >= 2,
                Duration.ofSeconds(60));
        for (String pod : PODS) {
            pods.kill(pod);
        }
        Instant down = Instant.now();
        Thread.sleep(4000);
        for (String pod : PODS) {
            pods.restart(pod);
        }
        // caught up: runs for instants at least 3 s after the pods came back
        Instant until = Instant.now().plusSeconds(3);
        api("integration-b").await("/platform/integration/flows/ticks/runs?limit=1",
                r -> r.path("runs").size() == 1 && Instant.parse(r.path("runs").get(0).path("scheduledAt").asText())
                        .isAfter(until), Duration.ofSeconds(90));
        assertThat(api("integration-a").send("DELETE", "/platform/integration/flows/ticks", null).status()).isEqualTo(204);
        JsonNode runs = api("integration-a").get("/platform/integration/flows/ticks/runs?limit=500").json();
        TreeSet<Instant> instants = new TreeSet<>();
        for (JsonNode run : runs.path("runs")) {
            // one run (one history record) per instant, whatever happened to the pods
            assertThat(instants.add(Instant.parse(run.path("scheduledAt").asText()))).isTrue();
        }
        List<Instant> gaps = new ArrayList<>();
        for (Instant i = instants.first(); i.isBefore(instants.last()); i = i.plusSeconds(1)) {
            if (!instants.contains(i)) {
                gaps.add(i);
            }
        }
        assertThat(gaps).as("instants missing around the outage at " + down).isEmpty();
        assertThat(instants.first()).isBefore(down);
    }
}
