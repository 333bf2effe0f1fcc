package io.pylon.core.broadcast;

import com.fasterxml.jackson.databind.JsonNode;
import io.pylon.core.discovery.KubernetesMock;
import io.pylon.core.http.Json;
import io.pylon.core.server.Pod;
import io.pylon.core.testing.FakeModule;
import io.pylon.core.testing.TestPods;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Broadcast over real pods on loopback found through fabric8's mock Kubernetes API (CRUD mode). */
class KubernetesBroadcastTest {
    private static final String AUTH = TestPods.ENVIRONMENT_ID;

    private KubernetesMock kubernetes;
    private final List<Pod> pods = new ArrayList<>();
    private Pod addressed;

    @BeforeEach
    void start() {
        kubernetes = new KubernetesMock();
        addressed = startWorker("worker-0");
        startWorker("worker-1");
        startWorker("worker-2");
    }

    @AfterEach
    void stop() {
        pods.forEach(Pod::stop);
        kubernetes.close();
    }

    /** A real pod with kubernetes discovery, and its Pod object in the API pointing at its loopback port. */
    private Pod startWorker(String name) {
        Pod pod = TestPods.start(new FakeModule("worker").servingDiagnostics(), name, Map.of(
                "pylon.discovery.mode", "kubernetes",
                "pylon.discovery.kubernetes.api-url", kubernetes.apiUrl(),
                "pylon.pod.namespace", KubernetesMock.NAMESPACE,
                // long enough for a cold first answer in a busy test JVM, short enough for the hung-pod test
                "pylon.broadcast.pod-timeout", "2s"));
        pods.add(pod);
        kubernetes.create(KubernetesMock.pod(name, "Running", "127.0.0.1", pod.port()));
        return pod;
    }

    private JsonNode broadcast(String name) throws Exception {
        HttpResponse<String> response = TestPods.get(addressed, "/platform/diagnostics/" + name, "Authorization", AUTH);
        assertThat(response.statusCode()).isEqualTo(200);
        return Json.MAPPER.readTree(response.body());
    }

    private static List<String> names(JsonNode body) {
        List<String> names = new ArrayList<>();
        body.path("pods").forEach(p -> names.add(p.path("podName").asText()));
        return names;
    }

    private JsonNode awaitPods(List<String> expected) throws Exception {
        long until = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        JsonNode body = broadcast("health");
        while (!names(body).equals(expected) && System.nanoTime() < until) {
            Thread.sleep(100);
            body = broadcast("health");
        }
        return body;
    }

    @Test
    void everyPodOfTheNamespaceAnswers() throws Exception {
        awaitPods(List.of("worker-0", "worker-1", "worker-2"));

        JsonNode body = broadcast("jvm");

        assertThat(names(body)).containsExactly("worker-0", "worker-1", "worker-2");
        body.path("pods").forEach(p -> assertThat(p.path("jvm").path("memory").path("heap").path("used").asLong()).isPositive());
        assertThat(body.path("discovery").path("mode").asText()).isEqualTo("kubernetes");
        assertThat(body.path("summary").path("succeeded").asInt()).isEqualTo(3);
    }

    @Test
    void podsAddedAndDeletedWhileRunningAreFollowed() throws Exception {
        assertThat(names(awaitPods(List.of("worker-0", "worker-1", "worker-2")))).containsExactly("worker-0", "worker-1", "worker-2");

        startWorker("worker-3");
        kubernetes.delete("worker-1");
        kubernetes.create(KubernetesMock.pod("worker-4", "Pending", null, 8091));

        JsonNode body = awaitPods(List.of("worker-0", "worker-2", "worker-3", "worker-4"));
        assertThat(names(body)).containsExactly("worker-0", "worker-2", "worker-3", "worker-4");
        assertThat(body.path("pods").get(2).path("health").path("status").asText()).isEqualTo("UP");
        JsonNode pending = body.path("pods").get(3);
        assertThat(pending.path("error").path("status").asInt()).isEqualTo(503);
        assertThat(pending.path("error").path("message").asText()).contains("Pending");
        assertThat(body.path("summary").path("failed").asInt()).isEqualTo(1);
    }

    @Test
    void aKilledPodAndAHungPodAreListedWithTheirErrors() throws Exception {
        // the first jvm answer of this test JVM loads its classes, which on a busy machine can take most of the pod
        // timeout; the live pod below must answer within it, so that cost is paid here
        awaitPods(List.of("worker-0", "worker-1", "worker-2"));
        broadcast("jvm");
        pods.get(2).stop();
        try (LoopbackPeers.RawServer hung = new LoopbackPeers.RawServer(null)) {
            int hungPort = Integer.parseInt(hung.url().substring(hung.url().lastIndexOf(':') + 1));
            kubernetes.create(KubernetesMock.pod("worker-9", "Running", "127.0.0.1", hungPort));
            awaitPods(List.of("worker-0", "worker-1", "worker-2", "worker-9"));

            long t0 = System.nanoTime();
            JsonNode body = broadcast("jvm");
            long elapsedMs = (System.nanoTime() - t0) / 1_000_000;

            assertThat(names(body)).containsExactly("worker-0", "worker-1", "worker-2", "worker-9");
            assertThat(body.path("pods").get(1).has("jvm")).as("worker-1 answers: %s", body.path("pods").get(1)).isTrue();
            assertThat(body.path("pods").get(2).path("error").path("status").asInt()).isEqualTo(502);
            assertThat(body.path("pods").get(3).path("error").path("status").asInt()).isEqualTo(504);
            assertThat(elapsedMs).isLessThan(2800);
        }
    }

    @Test
    void podParameterReachesThePodByItsKubernetesName() throws Exception {
        awaitPods(List.of("worker-0", "worker-1", "worker-2"));

        HttpResponse<String> response = TestPods.get(addressed, "/platform/diagnostics/threads?pod=worker-2", "Authorization", AUTH);

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(Json.MAPPER.readTree(response.body()).path("podName").asText()).isEqualTo("worker-2");
    }
}
