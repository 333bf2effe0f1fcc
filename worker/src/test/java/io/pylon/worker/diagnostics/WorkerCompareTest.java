package io.pylon.worker.diagnostics;

import com.fasterxml.jackson.databind.JsonNode;
import io.pylon.core.http.Json;
import io.pylon.core.testing.ChildPods;
import io.pylon.core.testing.TestPods;
import io.pylon.worker.testing.WorkerChildPod;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code compare} on three real Worker pods, each its own OS process: worker-a is made sick (a spinning thread and
 * 200 MB of retained heap), worker-b runs with a different value of one plain and one secret environment variable,
 * and discovery also lists worker-z, where nothing listens.
 */
class WorkerCompareTest {
    private static final String SECRET_A = "hunter2-the-first";
    private static final String SECRET_B = "hunter2-the-second";
    private static ChildPods pods;

    @BeforeAll
    static void start() throws Exception {
        Map<String, String> usual = Map.of("PYLON_TEST_FLAVOUR", "plain", "PYLON_TEST_DB_PASSWORD", SECRET_A);
        pods = new ChildPods(List.of("worker-a", "worker-b", "worker-c"),
                Map.of("worker-a", List.of("--fill-mb=200", "--spin")),
                Map.of("worker-a", usual, "worker-c", usual,
                        "worker-b", Map.of("PYLON_TEST_FLAVOUR", "spicy", "PYLON_TEST_DB_PASSWORD", SECRET_B)),
                WorkerChildPod.class.getName(), List.of("worker-z"));
        // CPU load is sampled at most once a second over the time since the last sample: let one span the spinning
        get("worker-c", "compare");
        Thread.sleep(1500);
    }

    @AfterAll
    static void stop() {
        if (pods != null) {
            pods.close();
        }
    }

    @Test
    void theSickPodIsRankedFirstAmongTheOutliers() throws Exception {
        HttpResponse<String> response = get("worker-b", "compare");
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        JsonNode answer = Json.MAPPER.readTree(response.body());
        JsonNode outliers = answer.path("outliers");
        assertThat(outliers.size()).as(outliers.toString()).isGreaterThanOrEqualTo(2);
        assertThat(outliers.get(0).path("podName").asText()).as(outliers.toString()).isEqualTo("worker-a");
        List<String> metricsOfA = new ArrayList<>();
        for (JsonNode outlier : outliers) {
            for (String field : List.of("podName", "metric", "value", "median", "mad", "score")) {
                assertThat(outlier.has(field)).as(field + " in " + outlier).isTrue();
            }
            if (outlier.path("podName").asText().equals("worker-a")) {
                metricsOfA.add(outlier.path("metric").asText());
            }
        }
        assertThat(metricsOfA).as(outliers + " " + answer.path("pods")).contains("heapAfterGc");
        // the spinning thread: whether its CPU load passes the threshold depends on what else the machine runs, but it
        // is the highest of the three
        double cpuA = podElement(answer, "worker-a").path("metrics").path("cpuLoad").asDouble();
        for (String other : List.of("worker-b", "worker-c")) {
            assertThat(cpuA).as(answer.path("pods").toString())
                    .isGreaterThan(podElement(answer, other).path("metrics").path("cpuLoad").asDouble());
        }
        JsonNode heap = find(outliers, "worker-a", "heapAfterGc");
        assertThat(heap.path("value").asDouble() - heap.path("median").asDouble()).isGreaterThan(150.0 * 1024 * 1024);
        assertThat(heap.path("score").asDouble()).isGreaterThan(answer.path("threshold").asDouble());
        // every answering pod lists its metrics, the Worker's connections among them
        JsonNode podB = podElement(answer, "worker-b");
        assertThat(podB.path("metrics").has("openConnections") || podB.path("metrics").has("upstreamActive")).isTrue();
        assertThat(podB.path("metrics").path("threadsBlocked").isNumber()).isTrue();
    }

    @Test
    void aChangedEnvironmentVariableShowsAsDriftWithItsSecretValueHidden() throws Exception {
        HttpResponse<String> response = get("worker-c", "compare");
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        assertThat(response.body()).doesNotContain(SECRET_A).doesNotContain(SECRET_B).doesNotContain("hunter2");
        JsonNode drift = Json.MAPPER.readTree(response.body()).path("drift");
        assertThat(drift.path("drifted").asBoolean()).isTrue();
        JsonNode secret = variable(drift, "PYLON_TEST_DB_PASSWORD");
        assertThat(secret.path("masked").asBoolean()).isTrue();
        assertThat(secret.path("groups")).hasSize(2);
        assertThat(secret.path("groups").get(0).path("pods").toString()).isEqualTo("[\"worker-a\",\"worker-c\"]");
        assertThat(secret.path("groups").get(1).path("pods").toString()).isEqualTo("[\"worker-b\"]");
        for (JsonNode group : secret.path("groups")) {
            assertThat(group.has("value")).as(group.toString()).isFalse();
            assertThat(group.path("hash").asText()).matches("[0-9a-f]{12}");
        }
        JsonNode plain = variable(drift, "PYLON_TEST_FLAVOUR");
        assertThat(plain.path("masked").asBoolean()).isFalse();
        assertThat(plain.path("groups").get(0).path("value").asText()).isEqualTo("plain");
        assertThat(plain.path("groups").get(1).path("value").asText()).isEqualTo("spicy");
        // the variables all pods share do not show, nor those that differ by design
        for (JsonNode variable : drift.path("env")) {
            assertThat(variable.path("name").asText()).isIn("PYLON_TEST_FLAVOUR", "PYLON_TEST_DB_PASSWORD");
        }
        assertThat(drift.path("versions")).isEmpty();
        assertThat(drift.path("commits")).isEmpty();
    }

    @Test
    void thePodThatDidNotAnswerIsListedAsInABroadcast() throws Exception {
        JsonNode answer = Json.MAPPER.readTree(get("worker-a", "compare").body());
        assertThat(answer.path("summary").path("total").asInt()).isEqualTo(4);
        assertThat(answer.path("summary").path("failed").asInt()).isEqualTo(1);
        JsonNode z = podElement(answer, "worker-z");
        assertThat(z.path("error").path("status").asInt()).isBetween(500, 504);
        assertThat(z.path("error").path("message").asText()).isNotEmpty();
        for (JsonNode outlier : answer.path("outliers")) {
            assertThat(outlier.path("podName").asText()).isNotEqualTo("worker-z");
        }
    }

    @Test
    void oneHashKeyPerComparisonSoHashesOfTwoComparisonsDoNotMatch() throws Exception {
        String first = variable(Json.MAPPER.readTree(get("worker-a", "compare").body()).path("drift"),
                "PYLON_TEST_FLAVOUR").path("groups").get(0).path("hash").asText();
        String second = variable(Json.MAPPER.readTree(get("worker-a", "compare").body()).path("drift"),
                "PYLON_TEST_FLAVOUR").path("groups").get(0).path("hash").asText();
        assertThat(first).isNotEqualTo(second);
    }

    @Test
    void oneSingledOutPodIsRefusedWith400NamingTheParameter() throws Exception {
        HttpResponse<String> internal = get("worker-a", "compare?internal=true");
        assertThat(internal.statusCode()).isEqualTo(400);
        JsonNode body = Json.MAPPER.readTree(internal.body());
        assertThat(body.path("error").asText()).isEqualTo("invalid_request");
        assertThat(body.path("details").path("parameter").asText()).isEqualTo("internal");
        assertThat(body.path("error_description").asText()).contains("compare");

        HttpResponse<String> pod = get("worker-a", "compare?pod=worker-b");
        assertThat(pod.statusCode()).isEqualTo(400);
        assertThat(Json.MAPPER.readTree(pod.body()).path("details").path("parameter").asText()).isEqualTo("pod");

        HttpResponse<String> bad = get("worker-a", "compare?internal=maybe");
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(bad.headers().firstValue("Content-Type").orElse("")).startsWith("application/json");

        HttpResponse<String> put = send("PUT", "worker-a", "compare");
        assertThat(put.statusCode()).isEqualTo(405);
        assertThat(put.headers().firstValue("Allow")).contains("GET");
    }

    @Test
    void compareReturnsTheSectionsAskedWithEachPodButNeverEnv() throws Exception {
        JsonNode answer = Json.MAPPER.readTree(get("worker-a", "compare?sections=jvm,threads,health,connections").body());
        assertThat(answer.path("outliers").isArray()).isTrue();
        int answered = 0;
        for (JsonNode pod : answer.path("pods")) {
            if (pod.has("error")) {
                assertThat(pod.has("jvm")).as(pod.toString()).isFalse();
                continue;
            }
            answered++;
            assertThat(pod.path("jvm").path("memory").path("heap").path("used").asLong()).as(pod.toString()).isPositive();
            assertThat(pod.path("threads").path("summary").path("threadCount").asInt()).isPositive();
            assertThat(pod.path("health").path("status").asText()).isIn("UP", "DOWN");
            assertThat(pod.path("connections").has("active")).as(pod.toString()).isTrue();
            assertThat(pod.has("env")).isFalse();
            assertThat(pod.has("metrics")).isTrue();
        }
        assertThat(answered).isEqualTo(3);
        JsonNode plain = Json.MAPPER.readTree(get("worker-a", "compare").body());
        assertThat(plain.path("pods").get(0).has("jvm")).as("no sections unless asked").isFalse();

        for (String bad : List.of("env", "jvm,env", "threaddump", "datagrid", "jvm,,threads")) {
            HttpResponse<String> refused = get("worker-a", "compare?sections=" + bad);
            assertThat(refused.statusCode()).as(bad).isEqualTo(400);
            assertThat(Json.MAPPER.readTree(refused.body()).path("details").path("parameter").asText()).isEqualTo("sections");
            assertThat(refused.body()).as(bad).contains("jvm, threads, health, connections");
        }
    }

    @Test
    void allTakesSectionsAndABadDigestIsRefused() throws Exception {
        HttpResponse<String> some = get("worker-b", "all?internal=true&sections=jvm,connections");
        assertThat(some.statusCode()).as(some.body()).isEqualTo(200);
        JsonNode body = Json.MAPPER.readTree(some.body());
        assertThat(body.has("jvm") && body.has("connections")).isTrue();
        assertThat(body.has("threads") || body.has("env") || body.has("threadDump")).isFalse();

        HttpResponse<String> unknown = get("worker-b", "all?internal=true&sections=jvm,heapdump");
        assertThat(unknown.statusCode()).isEqualTo(400);
        assertThat(Json.MAPPER.readTree(unknown.body()).path("details").path("parameter").asText()).isEqualTo("sections");

        HttpResponse<String> digest = get("worker-b", "env?internal=true&digest=not-hex");
        assertThat(digest.statusCode()).isEqualTo(400);
        assertThat(Json.MAPPER.readTree(digest.body()).path("details").path("parameter").asText()).isEqualTo("digest");
    }

    private static JsonNode find(JsonNode outliers, String pod, String metric) {
        for (JsonNode outlier : outliers) {
            if (outlier.path("podName").asText().equals(pod) && outlier.path("metric").asText().equals(metric)) {
                return outlier;
            }
        }
        throw new AssertionError("no outlier " + pod + "/" + metric + " in " + outliers);
    }

    private static JsonNode podElement(JsonNode answer, String pod) {
        for (JsonNode element : answer.path("pods")) {
            if (element.path("podName").asText().equals(pod)) {
                return element;
            }
        }
        throw new AssertionError("no pod " + pod + " in " + answer.path("pods"));
    }

    private static JsonNode variable(JsonNode drift, String name) {
        for (JsonNode variable : drift.path("env")) {
            if (variable.path("name").asText().equals(name)) {
                return variable;
            }
        }
        throw new AssertionError("no drift of " + name + " in " + drift.path("env"));
    }

    private static HttpResponse<String> get(String pod, String nameAndQuery) {
        return send("GET", pod, nameAndQuery);
    }

    private static HttpResponse<String> send(String method, String pod, String nameAndQuery) {
        return TestPods.send(HttpRequest.newBuilder(URI.create(pods.baseUrl(pod) + "/platform/diagnostics/" + nameAndQuery))
                .timeout(Duration.ofSeconds(60)).header("Authorization", TestPods.ENVIRONMENT_ID)
                .method(method, HttpRequest.BodyPublishers.noBody()).build());
    }
}
