package io.pylon.worker.diagnostics;

import com.fasterxml.jackson.databind.JsonNode;
import io.pylon.core.diagnostics.DiagnosticsContract;
import io.pylon.core.server.Pod;
import io.pylon.core.testing.TestPods;
import io.pylon.worker.WorkerModule;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Diagnostics of a real Worker pod: the shared sections plus its own {@code connections}; no {@code datagrid}. */
class WorkerDiagnosticsTest {
    private static Pod pod;

    @BeforeAll
    static void start() {
        pod = TestPods.start(new WorkerModule(), "worker-0", Map.of());
    }

    @AfterAll
    static void stop() {
        pod.stop();
    }

    @Test
    void answersEverySharedSection() throws Exception {
        DiagnosticsContract.assertSharedSections(pod, "worker");
    }

    @Test
    void offersConnectionsInItsOwnNameAndInAllButNoDatagrid() {
        JsonNode connections = DiagnosticsContract.internal(pod, "connections").path("connections");
        assertThat(connections.path("active").isNumber()).isTrue();
        assertThat(connections.path("idle").isNumber()).isTrue();
        assertThat(connections.path("pools").isArray()).isTrue();
        JsonNode all = DiagnosticsContract.internal(pod, "all");
        assertThat(all.has("connections")).isTrue();
        assertThat(all.path("health").path("checks").path("connections").path("activeConnections").isNumber()).isTrue();
        DiagnosticsContract.assertNotOffered(pod, "datagrid", List.of("connections"));
        DiagnosticsContract.assertNotOffered(pod, "hazelcast", List.of("connections"));
    }
}
