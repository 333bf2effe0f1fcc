package io.pylon.worker.diagnostics;

import io.pylon.core.diagnostics.CompatibilityContract;
import io.pylon.core.diagnostics.CompatibilitySpec;
import io.pylon.core.server.Pod;
import io.pylon.core.testing.TestPods;
import io.pylon.worker.WorkerModule;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Two real Worker pods that list each other (and a third that is gone) answer compatibility.md's fields, single and
 * broadcast. A route gives the connections section a pool to list.
 */
class WorkerCompatibilityTest {
    private static final CompatibilityContract CONTRACT = new CompatibilityContract("worker", Set.of("datagrid"));
    private static Pod first;
    private static Pod second;

    @BeforeAll
    static void start() throws IOException {
        int port0 = TestPods.freePort();
        int port1 = TestPods.freePort();
        int gone = TestPods.freePort();
        Path routes = Files.createTempDirectory("pylon-contract").resolve("routes.yaml");
        Files.writeString(routes, "routes:\n  - {name: app, pathPrefix: /app, upstreams: [http://127.0.0.1:" + gone + "]}\n");
        Map<String, String> settings = new HashMap<>();
        settings.put("pylon.worker.routes-file", routes.toString());
        settings.put("pylon.discovery.static", "worker-0=http://127.0.0.1:" + port0 + ",worker-1=http://127.0.0.1:" + port1
                + ",worker-gone=http://127.0.0.1:" + gone);
        settings.put("pylon.server.port", String.valueOf(port0));
        first = TestPods.start(new WorkerModule(), "worker-0", settings);
        settings.put("pylon.server.port", String.valueOf(port1));
        second = TestPods.start(new WorkerModule(), "worker-1", settings);
    }

    @AfterAll
    static void stop() {
        for (Pod pod : new Pod[] {first, second}) {
            if (pod != null) {
                pod.stop();
            }
        }
    }

    @Test
    void singlePodAnswersCarryEveryFieldTheSpecLists() {
        CONTRACT.assertSingle(first);
    }

    @Test
    void broadcastAnswersListEveryPodWithTheSpecsFields() {
        CONTRACT.assertBroadcast(second, List.of("worker-0", "worker-1"), "worker-gone");
    }

    @Test
    void aFieldTheSpecListsButNoServerWritesFailsTheContract() throws IOException {
        String spec = Files.readString(CompatibilitySpec.path());
        String drifted = spec.replace("jvm.uptime ", "jvm.uptimeMs ");
        assertThat(drifted).isNotEqualTo(spec);
        CompatibilityContract contract = new CompatibilityContract(CompatibilitySpec.parse(drifted, "platform"), "worker",
                Set.of("datagrid"));
        assertThatThrownBy(() -> contract.assertSingle(first)).isInstanceOf(AssertionError.class)
                .hasMessageContaining("jvm.uptimeMs");
    }
}
