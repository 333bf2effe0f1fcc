package io.pylon.distribution;

import com.fasterxml.jackson.databind.JsonNode;
import io.pylon.core.http.Json;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The README's flow on a running {@code pylon up}, every two seconds instead of every minute: it fetches the sample API
 * through a Worker, reshapes the answer and posts it to the sample's webhook receiver; the Integration pod that ran the
 * newest run is killed with SIGKILL, and the next runs happen on the other pod, with no instant run twice or left out.
 * The platform must be started with {@link #environment}: heartbeats that lapse in eight seconds, not twenty, still
 * more than the few seconds the surviving pod waits for the database when the killed pod served it.
 */
final class IntegrationFailoverCheck {
    static final String FLOW = "failover";

    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();
    private final JsonNode cluster;
    private final String manager;
    private final String token;

    IntegrationFailoverCheck(JsonNode cluster) throws Exception {
        this.cluster = cluster;
        this.manager = UpProcess.url(cluster, "manager");
        HttpResponse<String> answer = client.send(HttpRequest.newBuilder(URI.create(manager + "/apiops/auth/token"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("grant_type=client_credentials&client_id="
                        + cluster.path("admin").path("username").asText() + "&client_secret="
                        + URLEncoder.encode(cluster.path("admin").path("password").asText(), StandardCharsets.UTF_8)))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        this.token = Json.MAPPER.readTree(answer.body()).path("access_token").asText();
    }

    /** What the platform's pods need for this check: the Workers allowed, heartbeats every two seconds, four may be missed. */
    static Map<String, String> environment(String firstAddress) {
        String prefix = firstAddress.substring(0, firstAddress.lastIndexOf('.') + 1);
        return Map.of("PYLON_INTEGRATION_ALLOWED_HOSTS", prefix + "4," + prefix + "5",
                "PYLON_INTEGRATION_HEARTBEAT_INTERVAL", "2s", "PYLON_INTEGRATION_MISSED_HEARTBEATS", "4");
    }

    void run() throws Exception {
        List<String> integrationPods = new ArrayList<>();
        cluster.path("modules").path("integration").path("pods").forEach(p -> integrationPods.add(p.path("name").asText()));
        assertThat(integrationPods).as("two Integration pods").hasSize(2);
        List<String> workers = UpProcess.urls(cluster, "worker");
        String hook = workers.get(1) + "/sample" + WebhookInbox.PREFIX + FLOW;
        String flow = "name: " + FLOW + "\n"
                + "trigger: {schedule: {cron: \"*/2 * * * * ?\", timezone: UTC}}\n"
                + "steps:\n"
                + "  - id: fetch\n"
                + "    http: {url: \"" + workers.get(0) + "/sample/rates/today\", timeout: 5s}\n"
                + "  - id: shape\n"
                + "    transform: '{\"service\": fetch.body.service, \"asked\": fetch.body.path}'\n"
                + "  - id: notify\n"
                + "    webhook: {url: \"" + hook + "\", body: shape}\n";
        HttpResponse<String> created = send("POST", "/apiops/flows", flow);
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);

        JsonNode before = awaitRuns(r -> r.size() >= 2, 90, "two succeeded runs");
        JsonNode last = before.get(0);
        String victim = last.path("pod").asText();
        assertThat(integrationPods).as("the pod of run " + last).contains(victim);
        String survivor = integrationPods.stream().filter(n -> !n.equals(victim)).findFirst().orElseThrow();
        long pid = -1;
        for (JsonNode pod : cluster.path("modules").path("integration").path("pods")) {
            if (pod.path("name").asText().equals(victim)) {
                pid = pod.path("pid").asLong();
            }
        }
        ProcessHandle handle = ProcessHandle.of(pid).orElseThrow();
        Instant killed = Instant.now();
        new ProcessBuilder("kill", "-9", String.valueOf(pid)).start().waitFor();
        handle.onExit().get(10, TimeUnit.SECONDS);

        // the next runs happen on the survivor: those scheduled after the kill, and every one between
        JsonNode after = awaitRuns(r -> count(r, survivor, killed) >= 2, 90, "two runs on " + survivor + " after "
                + victim + " was killed at " + killed);
        send("POST", "/apiops/flows/" + FLOW + "/disable", "");

        // every instant from the first run to the newest ran: none left out, none twice in the history
        List<Instant> instants = new ArrayList<>();
        Map<String, Integer> attempts = new HashMap<>();
        for (JsonNode run : after) {
            instants.add(Instant.parse(run.path("scheduledAt").asText()));
            attempts.put(run.path("id").asText(), run.path("attempts").asInt());
        }
        instants.sort(null);
        for (int i = 1; i < instants.size(); i++) {
            assertThat(Duration.between(instants.get(i - 1), instants.get(i))).as("instants " + instants)
                    .isEqualTo(Duration.ofSeconds(2));
        }
        // the receiver got each run's delivery once (a run taken over mid-run may deliver once per attempt)
        HttpResponse<String> inbox = client.send(HttpRequest.newBuilder(URI.create(hook)).build(),
                HttpResponse.BodyHandlers.ofString());
        Map<String, Integer> deliveries = new HashMap<>();
        for (JsonNode delivery : Json.MAPPER.readTree(inbox.body()).path("deliveries")) {
            String run = delivery.path("X-Pylon-Delivery").asText().replaceAll("\\.notify$", "");
            deliveries.merge(run, 1, Integer::sum);
            assertThat(delivery.path("body").path("service").asText()).isEqualTo("sample");
        }
        for (Map.Entry<String, Integer> delivered : deliveries.entrySet()) {
            int attemptsOfRun = attempts.getOrDefault(delivered.getKey(), 1);
            assertThat(delivered.getValue()).as("deliveries of run " + delivered.getKey() + " with " + attemptsOfRun
                    + " attempts; history " + after).isLessThanOrEqualTo(attemptsOfRun);
        }
        assertThat(deliveries.keySet()).as("every succeeded run delivered").containsAll(attempts.keySet());
    }

    private static long count(JsonNode runs, String pod, Instant after) {
        long count = 0;
        for (JsonNode run : runs) {
            if (run.path("pod").asText().equals(pod) && Instant.parse(run.path("scheduledAt").asText()).isAfter(after)) {
                count++;
            }
        }
        return count;
    }

    /** The flow's succeeded runs, newest first, once {@code until} holds; fails after {@code seconds}. */
    private JsonNode awaitRuns(java.util.function.Predicate<JsonNode> until, int seconds, String what) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        JsonNode runs = Json.MAPPER.createArrayNode();
        String seen = "";
        while (System.nanoTime() < deadline) {
            HttpResponse<String> answer = send("GET", "/apiops/flows/" + FLOW + "/runs?limit=200", null);
            seen = answer.body();
            if (answer.statusCode() == 200) {
                var succeeded = Json.MAPPER.createArrayNode();
                Json.MAPPER.readTree(answer.body()).path("runs").forEach(r -> {
                    if (r.path("status").asText().equals("succeeded")) {
                        succeeded.add(r);
                    }
                });
                runs = succeeded;
                if (until.test(runs)) {
                    return runs;
                }
            }
            Thread.sleep(250);
        }
        throw new AssertionError("no " + what + " within " + seconds + " s; last answer: " + seen);
    }

    private HttpResponse<String> send(String method, String path, String body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(manager + path)).timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + token);
        if (body == null) {
            request.GET();
        } else {
            request.header("Content-Type", "application/yaml").method(method, HttpRequest.BodyPublishers.ofString(body));
        }
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
