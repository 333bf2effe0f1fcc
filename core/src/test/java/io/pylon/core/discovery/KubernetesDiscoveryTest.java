package io.pylon.core.discovery;

import io.fabric8.kubernetes.api.model.PodBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class KubernetesDiscoveryTest {
    private static final DiscoveredPod SELF = DiscoveredPod.callable("worker-0", "10.0.0.1", null);

    private KubernetesMock mock;
    private KubernetesDiscovery discovery;

    @BeforeEach
    void startMock() {
        mock = new KubernetesMock();
    }

    @AfterEach
    void stop() {
        if (discovery != null) {
            discovery.close();
        }
        mock.close();
    }

    private KubernetesDiscovery discover() {
        return new KubernetesDiscovery(mock::client, KubernetesMock.NAMESPACE, "app=worker", "http", 8091, SELF,
                Duration.ofSeconds(5));
    }

    private static Map<String, DiscoveredPod> byName(List<DiscoveredPod> pods) {
        return pods.stream().collect(Collectors.toMap(DiscoveredPod::podName, Function.identity()));
    }

    @Test
    void listsRunningPodsAtTheirNamedPortAndPendingOnesWithTheReason() throws Exception {
        mock.create(KubernetesMock.pod("worker-0", "Running", "10.0.0.1", 8091));
        mock.create(KubernetesMock.pod("worker-1", "Running", "10.0.0.2", 9001));
        mock.create(KubernetesMock.pod("worker-2", "Pending", null, 8091));
        mock.create(new PodBuilder(KubernetesMock.pod("cache-0", "Running", "10.0.0.9", 8090))
                .editMetadata().addToLabels("app", "cache").endMetadata().build());
        discovery = discover();

        Map<String, DiscoveredPod> pods = byName(discovery.pods());

        assertThat(pods).containsOnlyKeys("worker-0", "worker-1", "worker-2");
        assertThat(pods.get("worker-0")).isSameAs(SELF);
        assertThat(pods.get("worker-1").baseUrl()).isEqualTo(URI.create("http://10.0.0.2:9001"));
        assertThat(pods.get("worker-2").isCallable()).isFalse();
        assertThat(pods.get("worker-2").unavailable()).contains("Pending");
        assertThat(discovery.mode()).isEqualTo(DiscoveryMode.KUBERNETES);
    }

    @Test
    void followsPodsAddedAndDeletedWhileRunning() throws Exception {
        mock.create(KubernetesMock.pod("worker-0", "Running", "10.0.0.1", 8091));
        mock.create(KubernetesMock.pod("worker-1", "Running", "10.0.0.2", 8091));
        discovery = discover();
        assertThat(byName(discovery.pods())).containsOnlyKeys("worker-0", "worker-1");

        mock.create(KubernetesMock.pod("worker-3", "Running", "10.0.0.4", 8091));
        mock.delete("worker-1");

        long until = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!byName(discovery.pods()).keySet().equals(java.util.Set.of("worker-0", "worker-3")) && System.nanoTime() < until) {
            Thread.sleep(50);
        }
        assertThat(byName(discovery.pods())).containsOnlyKeys("worker-0", "worker-3");
    }

    @Test
    void thisPodIsListedEvenBeforeTheApiShowsIt() throws Exception {
        discovery = discover();

        assertThat(discovery.pods()).containsExactly(SELF);
    }

    @Test
    void anUnreachableApiIsADiscoveryErrorAfterTheSyncWait() throws Exception {
        int closedPort;
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort();
        }
        var config = new io.fabric8.kubernetes.client.ConfigBuilder(io.fabric8.kubernetes.client.Config.empty())
                .withMasterUrl("http://127.0.0.1:" + closedPort).withRequestRetryBackoffLimit(0).build();
        var client = new io.fabric8.kubernetes.client.KubernetesClientBuilder().withConfig(config).build();
        discovery = new KubernetesDiscovery(() -> client, KubernetesMock.NAMESPACE, "app=worker", "http", 8091, SELF,
                Duration.ofMillis(500));

        assertThatThrownBy(discovery::pods).isInstanceOf(DiscoveryException.class)
                .hasMessageContaining("no pod list from the Kubernetes API");
    }
}
