package io.pylon.worker.diagnostics;

import io.pylon.core.diagnostics.CompatibilityContract;
import io.pylon.core.diagnostics.CompatibilitySpec;
import io.pylon.core.testing.PeerPods;
import io.pylon.worker.WorkerModule;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
    private static PeerPods pods;

    @BeforeAll
    static void start() throws Exception {
        Path routes = Files.createTempDirectory("pylon-contract").resolve("routes.yaml");
        pods = PeerPods.start("worker", WorkerModule::new, gonePort -> {
            Files.writeString(routes, "routes:\n  - {name: app, pathPrefix: /app, upstreams: [http://127.0.0.1:" + gonePort + "]}\n");
            return Map.of("pylon.worker.routes-file", routes.toString());
        });
    }

    @AfterAll
    static void stop() {
        if (pods != null) {
            pods.close();
        }
    }

    @Test
    void singlePodAnswersCarryEveryFieldTheSpecLists() {
        CONTRACT.assertSingle(pods.first());
    }

    @Test
    void broadcastAnswersListEveryPodWithTheSpecsFields() {
        CONTRACT.assertBroadcast(pods.second(), List.of("worker-0", "worker-1"), "worker-gone");
    }

    @Test
    void aFieldTheSpecListsButNoServerWritesFailsTheContract() throws IOException {
        String spec = Files.readString(CompatibilitySpec.path());
        String drifted = spec.replace("jvm.uptime ", "jvm.uptimeMs ");
        assertThat(drifted).isNotEqualTo(spec);
        CompatibilityContract contract = new CompatibilityContract(CompatibilitySpec.parse(drifted, "platform"), "worker",
                Set.of("datagrid"));
        assertThatThrownBy(() -> contract.assertSingle(pods.first())).isInstanceOf(AssertionError.class)
                .hasMessageContaining("jvm.uptimeMs");
    }
}
