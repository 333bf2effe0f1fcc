package io.pylon.integration;

import io.pylon.core.testing.ChildPods;
import io.pylon.integration.store.IntegrationDatabase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two Integration pods on one H2 file in automatic mixed mode, as {@code pylon up} runs them, stopped with SIGTERM one
 * after the other while their schedulers poll: the file closes after each pod's scheduler stopped, so neither logs an
 * error (H2's own exit hook used to close it while the scheduler polled: "Database is already closed", SEVERE).
 */
class SharedH2StopTest {
    static final List<String> PODS = List.of("integration-h2a", "integration-h2b");

    @Test
    void podsSharingAnH2FileStopWithoutADatabaseError(@TempDir Path dir) throws Exception {
        Map<String, List<String>> extra = new HashMap<>();
        for (String pod : PODS) {
            List<String> args = new ArrayList<>();
            args.add("--graceful");
            args.add("pylon.integration.db.url=" + IntegrationDatabase.h2SharedUrl(dir));
            args.add("pylon.integration.polling-interval=50ms");
            args.add("pylon.integration.heartbeat-interval=500ms");
            extra.put(pod, args);
        }
        try (ChildPods pods = new ChildPods(PODS, extra, Map.of(), IntegrationChildPod.class.getName(), List.of())) {
            Thread.sleep(1_000); // both schedulers poll, one pod through the other's TCP server
            for (String pod : PODS) {
                pods.terminate(pod);
                Thread.sleep(1_000); // the other pod takes the file over and serves it
            }
            for (String pod : PODS) {
                long deadline = System.nanoTime() + 10_000_000_000L; // the output is read on a thread of its own
                while (pods.output(pod).stream().noneMatch(line -> line.contains("Pod " + pod + " stopped"))
                        && System.nanoTime() < deadline) {
                    Thread.sleep(50);
                }
                List<String> output = pods.output(pod);
                assertThat(output).as(pod + " stopped").anyMatch(line -> line.contains("Pod " + pod + " stopped"));
                assertThat(output).as(pod + "'s output:\n" + String.join("\n", output))
                        .noneMatch(line -> line.contains("SEVERE") || line.contains("already closed")
                                || line.contains("Exception"));
            }
        }
    }
}
