package io.pylon.integration;

import com.fasterxml.jackson.databind.JsonNode;
import io.pylon.core.server.Pod;
import io.pylon.core.testing.TestPods;
import io.pylon.integration.step.WebhookSignature;
import io.pylon.manager.ManagerModule;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A real Manager and a real Integration pod (H2) in this JVM, flows calling a real HTTP server: the documented flow
 * end to end with its webhook signature and $previous, the HTTP trigger and its key, schedules, history, the egress
 * guard, limits and the refusals of bad input.
 */
class IntegrationPodTest {
    static final String PASSWORD = "integration-test-Pa55word";
    static final String HOOK_SECRET = "hook-secret-value-5b1d";
    static Stub stub;
    static Pod manager;
    static Pod integration;
    static Api api;
    static Path secrets;

    @BeforeAll
    static void start() throws Exception {
        stub = new Stub();
        int managerPort = TestPods.freePort();
        secrets = Files.createTempDirectory("pylon-secrets");
        Files.writeString(secrets.resolve("rates-hook"), HOOK_SECRET + "\n");
        Map<String, String> settings = new HashMap<>();
        settings.put("pylon.integration.manager-url", "http://127.0.0.1:" + managerPort);
        settings.put("pylon.integration.allowed-hosts", "127.0.47.0/24");
        settings.put("pylon.integration.secrets-dir", secrets.toString());
        settings.put("pylon.integration.polling-interval", "100ms");
        settings.put("pylon.integration.transform.timeout", "500ms");
        settings.put("pylon.integration.history.output-max", "4096");
        integration = TestPods.start(new IntegrationModule(), "integration-0", settings);
        manager = TestPods.start(new ManagerModule(), "manager-0", Map.of("pylon.manager.admin.password", PASSWORD,
                "pylon.server.port", String.valueOf(managerPort),
                "pylon.manager.integration-url", TestPods.baseUrl(integration)));
        api = new Api(TestPods.baseUrl(integration), Api.token(TestPods.baseUrl(manager), PASSWORD));
    }

    @AfterAll
    static void stop() {
        if (integration != null) {
            integration.close();
        }
        if (manager != null) {
            manager.close();
        }
        if (stub != null) {
            stub.close();
        }
        TestPods.deleteTree(secrets);
    }

    private static String documented(String name) {
        return """
                name: %s
                trigger: {schedule: {cron: "0 */5 * * * ?", timezone: UTC}, http: true}
                concurrency: forbid
                steps:
                  - id: fetch
                    http: {method: GET, url: "%s", timeout: 5s, expect: [200]}
                    retry: {maxAttempts: 4, initialDelay: 1s, multiplier: 2, maxDelay: 30s}
                  - id: shape
                    transform: '{"eur": fetch.body.rates[code="EUR"].value}'
                  - id: changed
                    condition: 'shape.eur != $previous.shape.eur'
                  - id: notify
                    webhook: {url: "%s", body: shape, hmacSecretRef: rates-hook}
                onFailure: [{webhook: {url: "%s"}}]
                """.formatted(name, stub.url("/rates"), stub.url("/hook/" + name), stub.url("/alerts/" + name));
    }

    @Test
    void theDocumentedFlowFetchesShapesDecidesAndPostsASignedWebhook() throws Exception {
        JsonNode created = api.create(documented("sync-rates"));
        assertThat(created.path("triggerKey").asText()).startsWith("pylon_tk_");
        assertThat(created.path("nextRun").asText()).matches(".*:[0-5][05]:00Z");

        // the first run has no previous run: $previous is {} and, in JSONata, a comparison with a missing value is
        // false, so the documented condition skips it (docs/integration.md shows how to post on the first run too)
        stub.setRates("{\"rates\": [{\"code\": \"EUR\", \"value\": 1.0}]}");
        JsonNode initial = api.runAndWait("sync-rates", null);
        assertThat(initial.path("status").asText()).as(initial.toString()).isEqualTo("skipped");
        assertThat(stub.at("/hook/sync-rates")).isEmpty();

        stub.setRates("{\"rates\": [{\"code\": \"EUR\", \"value\": 1.1}, {\"code\": \"USD\", \"value\": 1.0}]}");
        JsonNode first = api.runAndWait("sync-rates", null);
        assertThat(first.path("status").asText()).as(first.toString()).isEqualTo("succeeded");
        assertThat(first.path("steps")).extracting(s -> s.path("step").asText())
                .containsExactly("fetch", "shape", "changed", "notify");
        assertThat(first.path("steps").get(0).path("httpStatus").asInt()).isEqualTo(200);
        assertThat(first.path("steps").get(1).path("output").toString()).isEqualTo("{\"eur\":1.1}");

        List<Stub.Received> hooks = stub.at("/hook/sync-rates");
        assertThat(hooks).hasSize(1);
        Stub.Received hook = hooks.get(0);
        assertThat(hook.body()).isEqualTo("{\"eur\":1.1}");
        long timestamp = Long.parseLong(hook.header(WebhookSignature.TIMESTAMP_HEADER));
        assertThat(hook.header(WebhookSignature.SIGNATURE_HEADER)).isEqualTo(WebhookSignature.sign(
                HOOK_SECRET.getBytes(StandardCharsets.UTF_8), timestamp, hook.body().getBytes(StandardCharsets.UTF_8)));

        // the same rate again: the condition reads $previous and ends the run as skipped, no webhook
        JsonNode second = api.runAndWait("sync-rates", null);
        assertThat(second.path("status").asText()).isEqualTo("skipped");
        assertThat(stub.at("/hook/sync-rates")).hasSize(1);

        stub.setRates("{\"rates\": [{\"code\": \"EUR\", \"value\": 1.2}]}");
        assertThat(api.runAndWait("sync-rates", null).path("status").asText()).isEqualTo("succeeded");
        assertThat(stub.at("/hook/sync-rates")).hasSize(2);

        JsonNode runs = api.get("/platform/integration/flows/sync-rates/runs?limit=3").json();
        assertThat(runs.path("runs")).hasSize(3);
        assertThat(runs.path("next").isNumber()).isTrue();
        JsonNode older = api.get("/platform/integration/flows/sync-rates/runs?limit=3&before=" + runs.path("next")).json();
        assertThat(older.path("runs")).hasSize(1);
        assertThat(older.path("runs").get(0).path("id").asText()).isEqualTo(initial.path("id").asText());
        assertThat(older.path("next").isNull()).isTrue();

        // the secret never reaches history or an answer
        assertThat(api.get("/platform/integration/runs/" + first.path("id").asText()).text()).doesNotContain(HOOK_SECRET);
        assertThat(api.get("/platform/integration/flows/sync-rates").text()).doesNotContain(HOOK_SECRET);
    }

    @Test
    void theTriggerKeyStartsRunsWithInputAndAWrongKeyDoesNot() throws Exception {
        JsonNode created = api.create("""
                name: echo
                trigger: {http: true}
                steps:
                  - {id: doubled, transform: '$input.n * 2'}
                """);
        String key = created.path("triggerKey").asText();
        Api anonymous = new Api(TestPods.baseUrl(integration), null);
        Api.Answer started = anonymous.send("POST", "/platform/integration/flows/echo/runs", "{\"n\": 21}",
                "X-Trigger-Key", key, "Content-Type", "application/json");
        assertThat(started.status()).as(started.text()).isEqualTo(202);
        String location = started.response().headers().firstValue("Location").orElseThrow();
        JsonNode done = api.await(location, r -> r.path("status").asText().equals("succeeded"), Duration.ofSeconds(60));
        assertThat(done.path("trigger").asText()).isEqualTo("http");
        assertThat(done.path("input").path("n").asInt()).isEqualTo(21);
        assertThat(done.path("steps").get(0).path("output").asInt()).isEqualTo(42);

        assertThat(anonymous.send("POST", "/platform/integration/flows/echo/runs", "{}", "X-Trigger-Key", "pylon_tk_wrong")
                .status()).isEqualTo(401);
        assertThat(anonymous.send("POST", "/platform/integration/flows/echo/runs", "{}").status()).isEqualTo(401);
        Api.Answer badInput = api.send("POST", "/platform/integration/flows/echo/runs", "{\"n\": ", "Content-Type",
                "application/json");
        assertThat(badInput.status()).isEqualTo(400);
        assertThat(badInput.json().path("error_description").asText()).contains("not JSON");
        assertThat(api.send("POST", "/platform/integration/flows/echo/runs?wait=forever", "{}").status()).isEqualTo(400);
        assertThat(api.send("POST", "/platform/integration/flows/nope/runs", "{}").status()).isEqualTo(404);
    }

    @Test
    void aScheduleWithSecondsRunsByItselfUntilTheFlowIsDeleted() throws Exception {
        api.create("""
                name: every-second
                trigger: {schedule: {cron: "* * * * * ?", timezone: Europe/Berlin}}
                steps:
                  - {id: now, transform: '$run.scheduledAt'}
                """);
        JsonNode runs = api.await("/platform/integration/flows/every-second/runs",
                r -> r.path("runs").size() >= 3, Duration.ofSeconds(60));
        for (JsonNode run : runs.path("runs")) {
            assertThat(run.path("trigger").asText()).isEqualTo("schedule");
            assertThat(run.path("scheduledAt").asText()).matches(".*T\\d\\d:\\d\\d:\\d\\dZ");
        }
        assertThat(api.send("DELETE", "/platform/integration/flows/every-second", null).status()).isEqualTo(204);
        Thread.sleep(1500);
        int after = api.get("/platform/integration/flows/every-second/runs?limit=500").json().path("runs").size();
        Thread.sleep(2500);
        assertThat(api.get("/platform/integration/flows/every-second/runs?limit=500").json().path("runs").size())
                .isEqualTo(after);
    }

    @Test
    void stepsToMetadataAndMappedLoopbackAreRefusedWithoutAnAllowListEntry() throws Exception {
        api.create("""
                name: metadata
                steps: [{id: creds, http: {url: "http://169.254.169.254/latest/meta-data/iam/"}}]
                """);
        api.create("""
                name: mapped-loopback
                steps: [{id: local, http: {url: "http://[::ffff:127.0.0.1]:%d/"}}]
                """.formatted(integration.port()));
        JsonNode metadata = api.runAndWait("metadata", null);
        assertThat(metadata.path("status").asText()).isEqualTo("failed");
        assertThat(metadata.path("error").asText()).contains("169.254.169.254").contains("refused");
        JsonNode mapped = api.runAndWait("mapped-loopback", null);
        assertThat(mapped.path("status").asText()).isEqualTo("failed");
        assertThat(mapped.path("error").asText()).contains("127.0.0.1").contains("loopback");
        // a refusal is not retried: one attempt each
        assertThat(mapped.path("steps")).hasSize(1);
    }

    @Test
    void aHangingWebhookTimesOutIsRetriedAndThenOnFailureRuns() throws Exception {
        api.create("""
                name: hanging
                steps:
                  - id: notify
                    webhook: {url: "%s", timeout: 500ms}
                    retry: {maxAttempts: 2, initialDelay: 100ms, maxDelay: 200ms, nonIdempotent: true}
                onFailure:
                  - {id: alert, webhook: {url: "%s"}}
                """.formatted(stub.url("/hang"), stub.url("/alerts/hanging")));
        JsonNode run = api.runAndWait("hanging", null);
        assertThat(run.path("status").asText()).isEqualTo("failed");
        assertThat(run.path("steps")).extracting(s -> s.path("step").asText() + "/" + s.path("attempt").asInt() + "/"
                + s.path("status").asText()).containsExactly("notify/1/failed", "notify/2/failed", "alert/1/succeeded");
        assertThat(run.path("steps").get(0).path("error").asText()).contains("500 ms");
        List<Stub.Received> alerts = stub.at("/alerts/hanging");
        assertThat(alerts).hasSize(1);
        JsonNode alert = Api.JSON.readTree(alerts.get(0).body());
        assertThat(alert.path("error").path("step").asText()).isEqualTo("notify");
        assertThat(alert.path("runId").asText()).isEqualTo(run.path("id").asText());
    }

    /**
     * A step whose host name the DNS server never answers ({@code TestNames}: answered in this JVM) fails at its own
     * timeout: the lookup is bounded by the step's deadline, which a cancel alone could not interrupt (before, the
     * step waited for the lookup, 60 s here, the system resolver's whole retry cycle in a cluster).
     */
    @Test
    void aStepWhoseNameIsNeverAnsweredFailsAtItsTimeout() throws Exception {
        api.create("""
                name: dns-silent
                steps:
                  - id: call
                    http: {method: GET, url: "http://hung-step.pylon-test/x", timeout: 500ms}
                """);
        long start = System.nanoTime();
        JsonNode run = api.runAndWait("dns-silent", null);
        assertThat((System.nanoTime() - start) / 1_000_000).as("ms until the run ended").isLessThan(10_000L);
        assertThat(run.path("status").asText()).isEqualTo("failed");
        assertThat(run.path("steps").get(0).path("error").asText()).contains("500 ms");
    }

    @Test
    void aPostIsNotRetriedUnlessTheFlowSaysSo() throws Exception {
        api.create("""
                name: post-once
                steps:
                  - id: create
                    http: {method: POST, url: "%s", body: {"a": 1}}
                    retry: {maxAttempts: 3, initialDelay: 10ms, maxDelay: 20ms}
                """.formatted(stub.url("/fail")));
        JsonNode run = api.runAndWait("post-once", null);
        assertThat(run.path("status").asText()).isEqualTo("failed");
        assertThat(run.path("steps")).hasSize(1);
        assertThat(run.path("steps").get(0).path("httpStatus").asInt()).isEqualTo(503);
    }

    @Test
    void aTenMegabyteOutputIsCutInMemoryAndInHistory() throws Exception {
        api.create("""
                name: big
                steps: [{id: fetch, http: {url: "%s"}}, {id: size, transform: '$length(fetch.body)'}]
                """.formatted(stub.url("/big")));
        JsonNode run = api.runAndWait("big", null);
        assertThat(run.path("status").asText()).as(run.toString()).isEqualTo("succeeded");
        JsonNode fetch = run.path("steps").get(0);
        assertThat(fetch.path("truncated").asBoolean()).isTrue();
        // the step kept the default 1 MiB of the 10 MB (its output is that body with status and headers); history
        // kept 4096 characters of the output
        assertThat(fetch.path("outputBytes").asInt()).isBetween(1024 * 1024, 1024 * 1024 + 64 * 1024);
        assertThat(fetch.path("output").asText()).hasSize(4096);
        assertThat(run.path("steps").get(1).path("output").asInt()).isEqualTo(1024 * 1024);
    }

    @Test
    void aLoopingTransformIsStopped() throws Exception {
        api.create("""
                name: loop
                steps: [{id: forever, transform: '($f := function($x) { $f($x + 1) }; $f(0))'}]
                """);
        JsonNode run = api.runAndWait("loop", null);
        assertThat(run.path("status").asText()).isEqualTo("failed");
        assertThat(run.path("error").asText()).contains("forever").contains("expression");
    }

    @Test
    void aDisabledFlowHasNoScheduledRunsAndRefusesItsTriggerKeyUntilEnabled() throws Exception {
        JsonNode created = api.create("""
                name: switched
                trigger: {schedule: {cron: "* * * * * ?", timezone: UTC}, http: true}
                steps:
                  - {id: now, transform: '$run.scheduledAt'}
                """);
        String key = created.path("triggerKey").asText();
        api.await("/platform/integration/flows/switched/runs", r -> r.path("runs").size() >= 1, Duration.ofSeconds(60));
        java.util.function.Function<JsonNode, JsonNode> rowOf = list -> {
            for (JsonNode flow : list.path("flows")) {
                if (flow.path("name").asText().equals("switched")) {
                    return flow;
                }
            }
            return com.fasterxml.jackson.databind.node.MissingNode.getInstance();
        };
        JsonNode row = rowOf.apply(api.await("/platform/integration/flows?limit=500",
                r -> rowOf.apply(r).path("lastRun").path("status").asText().equals("succeeded"), Duration.ofSeconds(60)));
        assertThat(row.path("lastRun").path("trigger").asText()).isEqualTo("schedule");
        assertThat(row.path("enabled").asBoolean()).isTrue();
        assertThat(row.path("trigger").path("schedule").path("cron").asText()).isEqualTo("* * * * * ?");
        assertThat(row.path("trigger").path("http").asBoolean()).isTrue();
        assertThat(row.path("nextRun").asText()).isNotEmpty();

        Api.Answer disabled = api.send("POST", "/platform/integration/flows/switched/disable", null);
        assertThat(disabled.status()).as(disabled.text()).isEqualTo(200);
        assertThat(disabled.json().path("enabled").asBoolean()).isFalse();
        assertThat(disabled.json().has("nextRun")).isFalse();
        Thread.sleep(1500); // a tick picked before the change ends; none after it
        int after = api.get("/platform/integration/flows/switched/runs?limit=500").json().path("runs").size();
        Thread.sleep(2500);
        assertThat(api.get("/platform/integration/flows/switched/runs?limit=500").json().path("runs").size())
                .isEqualTo(after);
        Api anonymous = new Api(TestPods.baseUrl(integration), null);
        Api.Answer refused = anonymous.send("POST", "/platform/integration/flows/switched/runs", "{}", "X-Trigger-Key", key);
        assertThat(refused.status()).isEqualTo(409);
        assertThat(refused.json().path("error").asText()).isEqualTo("flow_disabled");
        Api.Answer byHand = api.send("POST", "/platform/integration/flows/switched/runs?wait=30s", "{}");
        assertThat(byHand.status()).as(byHand.text()).isEqualTo(200);
        assertThat(byHand.json().path("trigger").asText()).isEqualTo("manual");

        assertThat(api.send("POST", "/platform/integration/flows/switched/enable", null).json().path("enabled").asBoolean())
                .isTrue();
        api.await("/platform/integration/flows/switched/runs?limit=500",
                r -> r.path("runs").size() > after + 1, Duration.ofSeconds(60));
        assertThat(anonymous.send("POST", "/platform/integration/flows/switched/runs", "{}", "X-Trigger-Key", key).status())
                .isEqualTo(202);
        assertThat(api.send("POST", "/platform/integration/flows/nope/disable", null).status()).isEqualTo(404);
        assertThat(api.send("DELETE", "/platform/integration/flows/switched", null).status()).isEqualTo(204);
    }

    @Test
    void theManagersFlowsApiForwardsToTheIntegrationPodAndAuditsChanges() throws Exception {
        Api viaManager = new Api(TestPods.baseUrl(manager), api.token());
        Api.Answer created = viaManager.post("/apiops/flows", """
                name: managed
                steps: [{id: greet, transform: '"hello " & $input.who'}]
                """);
        assertThat(created.status()).as(created.text()).isEqualTo(201);
        assertThat(created.response().headers().firstValue("Location")).hasValue("/apiops/flows/managed");
        assertThat(viaManager.get("/apiops/flows").json().path("flows").toString()).contains("\"managed\"");
        assertThat(viaManager.get("/apiops/flows/managed").json().path("document").asText()).contains("hello");

        Api.Answer run = viaManager.send("POST", "/apiops/flows/managed/runs?wait=30s", "{\"who\": \"ops\"}",
                "Content-Type", "application/json");
        assertThat(run.status()).as(run.text()).isEqualTo(200);
        assertThat(run.json().path("steps").get(0).path("output").asText()).isEqualTo("hello ops");
        String id = run.json().path("id").asText();
        assertThat(viaManager.get("/apiops/flows/managed/runs").json().path("runs").get(0).path("id").asText())
                .isEqualTo(id);
        assertThat(viaManager.get("/apiops/flows/managed/runs/" + id).json().path("status").asText()).isEqualTo("succeeded");
        assertThat(viaManager.get("/apiops/flows/managed/runs/" + id + "/steps").json().path("steps")).hasSize(1);

        Api.Answer invalid = viaManager.post("/apiops/flows", "name: x\nsteps: [{http: {url: nope}}]\n");
        assertThat(invalid.status()).isEqualTo(400);
        assertThat(invalid.json().path("details").path("problems").get(0).path("at").asText()).startsWith("steps[0]");
        assertThat(viaManager.send("DELETE", "/apiops/flows/managed", null).status()).isEqualTo(204);
        assertThat(viaManager.get("/apiops/flows/managed").status()).isEqualTo(404);
        assertThat(new Api(TestPods.baseUrl(manager), null).get("/apiops/flows").status()).isEqualTo(401);

        String audit = viaManager.get("/apiops/audit?limit=100").text();
        assertThat(audit).contains("flow.created", "flow:managed", "flow.run", "flow.deleted");
    }

    @Test
    void diagnosticsAndMetersShowTheScheduler() throws Exception {
        api.create("""
                name: metered
                steps: [{id: fail, http: {url: "%s"}}]
                """.formatted(stub.url("/fail")));
        api.runAndWait("metered", null);
        java.net.http.HttpResponse<String> section = TestPods.get(integration, "/platform/diagnostics/integration",
                "Authorization", TestPods.ENVIRONMENT_ID);
        assertThat(section.statusCode()).isEqualTo(200);
        JsonNode body = Api.JSON.readTree(section.body()).path("pods").path(0).path("integration");
        assertThat(body.path("database").asText()).as(section.body()).isEqualTo("h2");
        assertThat(body.path("flows").asInt()).isPositive();
        assertThat(body.has("due")).isTrue();
        assertThat(body.path("settings").path("allowedHosts").toString()).contains("127.0.47.0/24");
        String metrics = TestPods.get(integration, "/platform/management/metrics").body();
        assertThat(metrics).contains("pylon_integration_runs_finished_total{flow=\"metered\",status=\"failed\"} 1.0")
                .contains("pylon_integration_due ").contains("pylon_integration_overdue ")
                .contains("pylon_integration_run_start_delay_seconds_bucket");
    }

    @Test
    void malformedDocumentsAre400NamingTheProblem() throws Exception {
        Api.Answer notYaml = api.post("/platform/integration/flows", "name: [unclosed");
        assertThat(notYaml.status()).isEqualTo(400);
        assertThat(notYaml.json().path("error").asText()).isEqualTo("invalid_flow");

        Api.Answer badStep = api.post("/platform/integration/flows", """
                name: bad
                steps: [{id: fetch, http: {url: "ftp://x/", method: GET}}]
                """);
        assertThat(badStep.status()).isEqualTo(400);
        assertThat(badStep.json().path("details").path("problems").get(0).path("at").asText())
                .isEqualTo("steps[0] (fetch).http.url");

        Api.Answer badCron = api.post("/platform/integration/flows", """
                name: bad
                trigger: {schedule: {cron: "every minute"}}
                steps: [{delay: 1s}]
                """);
        assertThat(badCron.status()).isEqualTo(400);
        assertThat(badCron.json().path("error_description").asText()).contains("trigger.schedule.cron");

        Api.Answer validation = api.post("/platform/integration/flows/validate", "name: ok\nsteps: [{delay: 1s}]\n");
        assertThat(validation.json().path("valid").asBoolean()).isTrue();

        Api.Answer tooLarge = api.post("/platform/integration/flows", "name: x\n#" + "y".repeat(300_000));
        assertThat(tooLarge.status()).isEqualTo(413);
        assertThat(api.get("/platform/integration/flows?limit=0").status()).isEqualTo(400);
        // the history's cursors are sequence numbers: anything else is refused naming the parameter, as JSON
        for (String query : List.of("flows/any/runs?before=abc", "flows/any/runs?before=1e3", "flows/any/runs?limit=501",
                "flows/any/runs?limit=-1", "runs/any/steps?after=%27%20OR%201=1")) {
            Api.Answer refused = api.get("/platform/integration/" + query);
            assertThat(refused.status()).as(query).isEqualTo(400);
            assertThat(refused.json().path("error_description").asText()).as(query)
                    .startsWith(query.substring(query.indexOf('?') + 1, query.indexOf('=')) + ":");
        }
        assertThat(api.get("/platform/integration/runs/nope").status()).isEqualTo(404);
        assertThat(api.send("PUT", "/platform/integration/flows/other", "name: x\nsteps: [{delay: 1s}]\n").status())
                .isEqualTo(400);
        assertThat(new Api(TestPods.baseUrl(integration), "pylon_at_forged").get("/platform/integration/flows").status())
                .isEqualTo(401);
        assertThat(api.get("/platform/integration/flow-schema.json").json().path("$defs").has("step")).isTrue();
    }
}
