package io.pylon.core.diagnostics;

import com.fasterxml.jackson.databind.JsonNode;
import io.pylon.core.http.Json;
import io.pylon.core.server.Pod;
import io.pylon.core.testing.TestPods;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Plausible values in the single-pod answers of a real pod of any diagnostics module: Worker and Cache tests run it
 * on their own pods (it ships in the core test-jar). Which fields must exist is read from compatibility.md itself by
 * {@link CompatibilityContract}.
 */
public final class DiagnosticsContract {
    public static final List<String> SHARED = List.of("jvm", "threads", "threaddump", "env", "health", "all");

    private DiagnosticsContract() {
    }

    /** An authorised call: {@code name?query}. */
    public static HttpResponse<String> call(Pod pod, String nameAndQuery, String... headers) {
        return DiagnosticsClient.call(pod, nameAndQuery, headers);
    }

    public static JsonNode internal(Pod pod, String name) {
        return DiagnosticsClient.internal(pod, name);
    }

    /** Every shared name answers the envelope and the fields clients read, with plausible values. */
    public static void assertSharedSections(Pod pod, String module) throws InterruptedException {
        CountDownLatch release = new CountDownLatch(1);
        Thread marker = new Thread(() -> {
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "contract-marker-thread");
        marker.start();
        try {
            for (String name : SHARED) {
                HttpResponse<String> response = call(pod, name + "?internal=true");
                assertThat(response.statusCode()).as(name).isEqualTo(200);
                assertThat(response.body()).as(name).startsWith("{").doesNotContain("\n")
                        .doesNotContain(TestPods.ENVIRONMENT_ID);
                JsonNode body = json(response);
                assertEnvelope(body, pod, module);
                switch (name) {
                    case "jvm" -> assertJvm(body.path("jvm"));
                    case "threads" -> assertThreads(body.path("threads"));
                    case "threaddump" -> assertThat(body.path("threadDump").asText()).contains("\"contract-marker-thread\"");
                    case "health" -> assertHealth(body.path("health"));
                    case "env" -> assertThat(body.path("env").path("systemProperties").path("java.version").asText())
                            .isEqualTo(System.getProperty("java.version"));
                    default -> {
                        assertJvm(body.path("jvm"));
                        assertThreads(body.path("threads"));
                        assertHealth(body.path("health"));
                        assertThat(body.path("threadDump").isTextual()).isTrue();
                        assertThat(body.has("env")).isTrue();
                    }
                }
            }
        } finally {
            release.countDown();
            marker.join();
        }
        assertThat(TestPods.get(pod, "/platform/diagnostics/jvm?internal=true").statusCode()).isEqualTo(401);
        assertThat(TestPods.get(pod, "/platform/diagnostics/jvm", "Authorization", "wrong").statusCode()).isEqualTo(401);
    }

    /** A name the module does not offer: 404 listing what it does offer. */
    public static void assertNotOffered(Pod pod, String name, List<String> offered) {
        HttpResponse<String> response = call(pod, name + "?internal=true");
        assertThat(response.statusCode()).as(name).isEqualTo(404);
        List<String> available = new ArrayList<>();
        json(response).path("details").path("available").forEach(n -> available.add(n.asText()));
        assertThat(available).containsAll(SHARED).contains("heapdump").containsAll(offered).doesNotContain(name);
    }

    static void assertEnvelope(JsonNode body, Pod pod, String module) {
        assertThat(body.path("podName").asText()).isEqualTo(pod.identity().podName());
        assertThat(body.path("podIp").asText()).isEqualTo(pod.identity().podIp());
        assertThat(body.has("namespace") && body.has("nodeName")).isTrue();
        assertThat(body.path("envName").asText()).isEqualTo(pod.identity().envName());
        assertThat(body.path("module").asText()).isEqualTo(module);
        assertThat(body.path("version").asText()).isNotBlank();
        assertThat(body.path("responseTime").isNumber()).isTrue();
    }

    static void assertJvm(JsonNode jvm) {
        JsonNode heap = jvm.path("memory").path("heap");
        assertThat(heap.path("used").asLong()).isPositive().isLessThanOrEqualTo(heap.path("committed").asLong());
        assertThat(heap.path("max").isNumber()).isTrue();
        assertThat(jvm.path("memory").path("nonHeap").path("used").asLong()).isPositive();
        assertThat(jvm.path("gc")).isNotEmpty();
        jvm.path("gc").forEach(gc -> {
            assertThat(gc.path("name").asText()).isNotBlank();
            assertThat(gc.path("collectionCount").isNumber() && gc.path("collectionTime").isNumber()).isTrue();
        });
        assertThat(jvm.path("uptime").asLong()).isPositive();
    }

    static void assertThreads(JsonNode threads) {
        for (String field : List.of("threadCount", "peakThreadCount", "daemonThreadCount", "totalStartedThreadCount")) {
            assertThat(threads.path("summary").path(field).asLong()).as(field).isPositive();
        }
        for (String state : List.of("RUNNABLE", "WAITING", "TIMED_WAITING", "BLOCKED", "NEW", "TERMINATED")) {
            assertThat(threads.path("states").path(state).isNumber()).as(state).isTrue();
        }
        for (String pool : List.of("platform-async", "platform-maintenance")) {
            for (String field : List.of("poolSize", "activeCount", "queueSize", "rejectedTaskCount")) {
                assertThat(threads.path("executorPools").path(pool).path(field).isNumber()).as(pool + "." + field).isTrue();
            }
        }
    }

    static void assertHealth(JsonNode health) {
        assertThat(health.path("status").asText()).isIn("UP", "DOWN");
        assertThat(health.path("checks").path("memory").path("status").asText()).isEqualTo("UP");
        assertThat(health.path("checks").path("threads").path("deadlocks").asInt()).isZero();
        assertThat(health.path("checks").path("diskSpace").path("status").asText()).isEqualTo("UP");
        assertThat(health.path("uptime").asLong()).isPositive();
        assertThat(health.path("system").path("hostname").asText()).isNotBlank();
    }

    static JsonNode json(HttpResponse<String> response) {
        try {
            return Json.MAPPER.readTree(response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
