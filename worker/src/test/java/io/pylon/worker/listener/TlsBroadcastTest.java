package io.pylon.worker.listener;

import com.fasterxml.jackson.databind.JsonNode;
import io.pylon.core.discovery.KubernetesMock;
import io.pylon.core.http.Json;
import io.pylon.core.testing.TestPods;
import io.pylon.worker.testing.Gateway;
import io.pylon.worker.testing.TestCertificates;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A diagnostics broadcast between Workers that listen on TLS only, found through (fabric8's mock) Kubernetes API: the
 * peers are called over {@code https}, trusting the certificate the pods share.
 */
class TlsBroadcastTest {
    static KubernetesMock kubernetes;
    static TestCertificates.Issued ca;
    static Path secret;
    static final List<Gateway> workers = new ArrayList<>();

    @BeforeAll
    static void start() throws Exception {
        kubernetes = new KubernetesMock();
        ca = TestCertificates.authority("Broadcast CA");
        secret = Files.createTempDirectory("pylon-tls-broadcast");
        TestCertificates.leaf("worker", ca).write(secret, "tls");
        for (String name : List.of("worker-0", "worker-1")) {
            Gateway worker = Gateway.start(name, "routes: []\n", Map.of(
                    "pylon.worker.tls.certificate-file", secret.resolve("tls.crt").toString(),
                    "pylon.worker.tls.key-file", secret.resolve("tls.key").toString(),
                    "pylon.discovery.mode", "kubernetes",
                    "pylon.discovery.kubernetes.api-url", kubernetes.apiUrl(),
                    "pylon.pod.namespace", KubernetesMock.NAMESPACE,
                    "pylon.broadcast.pod-timeout", "5s"));
            workers.add(worker);
            kubernetes.create(KubernetesMock.pod(name, "Running", "127.0.0.1", worker.pod.port()));
        }
    }

    @AfterAll
    static void stop() {
        workers.forEach(Gateway::close);
        kubernetes.close();
        TestPods.deleteTree(secret);
    }

    @Test
    void everyPodAnswersOverHttps() throws Exception {
        HttpClient client = HttpClient.newBuilder().sslContext(TestCertificates.trusting(ca))
                .connectTimeout(Duration.ofSeconds(10)).build();
        URI uri = URI.create("https://127.0.0.1:" + workers.getFirst().pod.port() + "/platform/diagnostics/health");
        long until = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        JsonNode body;
        List<String> answered;
        do {
            HttpResponse<String> response = client.send(HttpRequest.newBuilder(uri)
                    .header("Authorization", TestPods.ENVIRONMENT_ID).timeout(Duration.ofSeconds(30)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).isEqualTo(200);
            body = Json.MAPPER.readTree(response.body());
            answered = new ArrayList<>();
            for (JsonNode pod : body.path("pods")) {
                if (pod.path("error").isMissingNode() || pod.path("error").isNull()) {
                    answered.add(pod.path("podName").asText());
                }
            }
            if (answered.size() < 2) {
                Thread.sleep(200);
            }
        } while (answered.size() < 2 && System.nanoTime() < until);
        assertThat(answered).as(body.toString()).containsExactlyInAnyOrder("worker-0", "worker-1");
    }
}
