package io.pylon.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.pylon.core.http.Json;
import io.pylon.core.testing.FakeModule;
import io.pylon.core.testing.TestPods;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Kubernetes discovery and broadcast against a real kube-apiserver. The test plays the kubelet: it creates Worker
 * pods from the shipped Deployment's pod template (labels, ports, service account), starts a real pod on its own
 * loopback address and the shipped port 8091 for each, and patches the pod status to Running with that address;
 * then it kills and deletes them, lets a watch expire and restarts the API server. The pods watch with a real
 * service-account token of pylon-discovery, so they only have the RBAC the manifests ship.
 */
class DiscoveryOnApiServerTest {
    private static final String NAMESPACE = "pylon";
    private static final int PORT = 8091;
    private static final Duration PATIENCE = Duration.ofSeconds(60);

    private static LocalApiServer kube;
    private static KubernetesClient admin;
    private static Pod workerTemplate;
    private static String previousKubeconfig;

    /** Real pods by name, each on its own address 127.0.21.(10+n). */
    private final Map<String, io.pylon.core.server.Pod> running = new LinkedHashMap<>();

    @BeforeAll
    static void start() throws Exception {
        kube = LocalApiServer.start();
        kube.kubectl("apply", "-k", DeployTools.ROOT.resolve("deploy/kubernetes").toString()).ok();
        admin = kube.adminClient();
        Deployment worker = Serialization.unmarshal(
                kube.kubectl("-n", NAMESPACE, "get", "deployment", "pylon-worker", "-o", "json").ok(), Deployment.class);
        workerTemplate = new PodBuilder().withMetadata(worker.getSpec().getTemplate().getMetadata())
                .withSpec(worker.getSpec().getTemplate().getSpec()).build();
        // the pods' fabric8 clients read this kubeconfig: the discovery service account's token and the test CA
        Path kubeconfig = kube.serviceAccountKubeconfig(NAMESPACE, "pylon-discovery");
        previousKubeconfig = System.setProperty("kubeconfig", kubeconfig.toString());
    }

    @AfterAll
    static void stop() {
        if (previousKubeconfig == null) {
            System.clearProperty("kubeconfig");
        } else {
            System.setProperty("kubeconfig", previousKubeconfig);
        }
        if (admin != null) {
            admin.close();
        }
        if (kube != null) {
            kube.close();
        }
    }

    @AfterEach
    void stopPods() {
        running.values().forEach(io.pylon.core.server.Pod::stop);
        admin.pods().inNamespace(NAMESPACE).withLabel("app", "worker").withGracePeriod(0).delete();
        awaitNoWorkerPods();
    }

    /** Starts a real Worker pod on 127.0.21.(10+n):8091 watching the API server, and creates its Pod object (Pending). */
    private String startWorker(int n) {
        String name = "pylon-worker-test-" + n;
        String address = "127.0.21." + (10 + n);
        running.put(name, TestPods.start(new FakeModule("worker").servingDiagnostics(), name, Map.of(
                "pylon.server.bind", address,
                "pylon.server.port", String.valueOf(PORT),
                "pylon.pod.ip", address,
                "pylon.pod.namespace", NAMESPACE,
                "pylon.discovery.mode", "kubernetes",
                "pylon.discovery.kubernetes.label-selector", "app=worker",
                "pylon.discovery.kubernetes.api-url", kube.url(),
                "pylon.broadcast.pod-timeout", "2s")));
        Pod pod = new PodBuilder(workerTemplate).editMetadata().withName(name).withNamespace(NAMESPACE).endMetadata()
                .editSpec().withNodeName("test-node").endSpec().build();
        admin.pods().inNamespace(NAMESPACE).resource(pod).create();
        return name;
    }

    /** What a kubelet reports once the container runs: phase Running and the pod's address. */
    private void markRunning(String name) {
        String address = running.get(name).identity().podIp();
        admin.pods().inNamespace(NAMESPACE).withName(name).editStatus(p -> new PodBuilder(p).editOrNewStatus()
                .withPhase("Running").withPodIP(address).addNewPodIP(address).withHostIP("127.0.21.1").endStatus().build());
    }

    /** Both pods reported Running, and the broadcast from the first reaching both. */
    private void awaitRunning(String a, String b) throws Exception {
        markRunning(a);
        markRunning(b);
        awaitBroadcast(a, answers(a, b));
    }

    private void markFailed(String name) {
        admin.pods().inNamespace(NAMESPACE).withName(name).editStatus(p -> new PodBuilder(p).editOrNewStatus()
                .withPhase("Failed").endStatus().build());
    }

    private JsonNode broadcast(String from, String section) throws Exception {
        HttpResponse<String> response = TestPods.get(running.get(from), "/platform/diagnostics/" + section,
                "Authorization", TestPods.ENVIRONMENT_ID);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return Json.MAPPER.readTree(response.body());
    }

    /** Broadcasts health from the given pod until the answer satisfies the condition. */
    private JsonNode awaitBroadcast(String from, Predicate<JsonNode> condition) throws Exception {
        long until = System.nanoTime() + PATIENCE.toNanos();
        JsonNode body = broadcast(from, "health");
        while (!condition.test(body) && System.nanoTime() < until) {
            LocalApiServer.sleep(200);
            body = broadcast(from, "health");
        }
        assertThat(condition.test(body)).as("broadcast from %s: %s", from, body).isTrue();
        return body;
    }

    private static Predicate<JsonNode> answers(String... healthyPods) {
        return body -> {
            List<String> up = new ArrayList<>();
            body.path("pods").forEach(p -> {
                if ("UP".equals(p.path("health").path("status").asText())) {
                    up.add(p.path("podName").asText());
                }
            });
            return names(body).equals(List.of(healthyPods)) && up.equals(List.of(healthyPods));
        };
    }

    private static List<String> names(JsonNode body) {
        List<String> names = new ArrayList<>();
        body.path("pods").forEach(p -> names.add(p.path("podName").asText()));
        return names;
    }

    private static JsonNode pod(JsonNode body, String name) {
        for (JsonNode pod : body.path("pods")) {
            if (pod.path("podName").asText().equals(name)) {
                return pod;
            }
        }
        throw new AssertionError(name + " not in " + body);
    }

    private void awaitNoWorkerPods() {
        long until = System.nanoTime() + PATIENCE.toNanos();
        while (!admin.pods().inNamespace(NAMESPACE).withLabel("app", "worker").list().getItems().isEmpty()) {
            assertThat(System.nanoTime()).as("worker pods deleted").isLessThan(until);
            LocalApiServer.sleep(200);
        }
    }

    @Test
    void aPendingPodIsListedAndIsCalledOnceTheKubeletReportsItRunning() throws Exception {
        String a = startWorker(0);
        String b = startWorker(1);
        markRunning(a);

        JsonNode pending = awaitBroadcast(a, body -> names(body).equals(List.of(a, b)));
        assertThat(pod(pending, b).path("error").path("status").asInt()).isEqualTo(503);
        assertThat(pod(pending, b).path("error").path("message").asText()).contains("Pending");

        markRunning(b);

        JsonNode body = awaitBroadcast(a, answers(a, b));
        assertThat(body.path("discovery").path("mode").asText()).isEqualTo("kubernetes");
        assertThat(awaitBroadcast(b, answers(a, b)).path("summary").path("succeeded").asInt()).isEqualTo(2);
    }

    @Test
    void aKilledPodFailsItsCallThenIsListedAsFailedThenDisappearsWhenDeleted() throws Exception {
        String a = startWorker(0);
        String b = startWorker(1);
        awaitRunning(a, b);

        running.remove(b).stop();
        JsonNode killed = broadcast(a, "health");
        assertThat(pod(killed, b).path("error").path("status").asInt()).as("%s", killed).isEqualTo(502);

        markFailed(b);
        JsonNode failed = awaitBroadcast(a, body -> pod(body, b).path("error").path("message").asText().contains("Failed"));
        assertThat(pod(failed, b).path("error").path("status").asInt()).isEqualTo(503);

        admin.pods().inNamespace(NAMESPACE).withName(b).withGracePeriod(0).delete();
        awaitBroadcast(a, answers(a));
    }

    @Test
    void theWatchOutlivesAnApiServerRestartAndAnExpiredResourceVersion() throws Exception {
        String a = startWorker(0);
        String b = startWorker(1);
        awaitRunning(a, b);
        String seenVersion = admin.pods().inNamespace(NAMESPACE).list().getMetadata().getResourceVersion();

        kube.stopApiServer();
        // while the API server is away the pods keep answering from what they last saw
        awaitBroadcast(a, answers(a, b));
        // history up to now is compacted: a watch resuming from any version seen so far expires (410 Gone)
        for (int i = 0; i < 3; i++) {
            kube.bumpEtcdRevision();
        }
        long revision = kube.etcdRevision();
        kube.compactEtcd(revision);
        kube.startApiServer();
        Command expired = kube.kubectl("get", "--raw",
                "/api/v1/namespaces/pylon/pods?watch=1&timeoutSeconds=1&resourceVersion=" + seenVersion);
        assertThat(expired.out() + expired.err()).as("a watch from resourceVersion %s after compaction at %s", seenVersion, revision)
                .contains("410");

        String c = startWorker(2);
        markRunning(c);
        admin.pods().inNamespace(NAMESPACE).withName(b).withGracePeriod(0).delete();

        awaitBroadcast(a, answers(a, c));
        awaitBroadcast(c, answers(a, c));
    }
}
