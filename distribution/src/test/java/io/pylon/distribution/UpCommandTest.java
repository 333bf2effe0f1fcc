package io.pylon.distribution;

import io.pylon.core.config.InvalidSettingException;
import io.pylon.core.config.Settings;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Where `pylon up` waits for each pod: the readiness probe under the configured segment, not a fixed one. */
class UpCommandTest {
    private static final LocalPod WORKER = new LocalPod("worker", "worker-0", "127.0.16.4", 8091);

    @Test
    void waitsOnTheDefaultSegmentWhenNoneIsSet() {
        assertThat(UpCommand.readinessUrl(WORKER, UpCommand.paths(Settings.of(Map.of()))))
                .isEqualTo("http://127.0.16.4:8091/platform/management/health/ready");
    }

    @Test
    void honoursANonDefaultSegment() {
        Settings settings = Settings.of(Map.of("pylon.path.segment", "acme"));

        assertThat(UpCommand.readinessUrl(WORKER, UpCommand.paths(settings)))
                .isEqualTo("http://127.0.16.4:8091/acme/management/health/ready");
    }

    @Test
    void stoppingLeavesThePodsOutputOpenUntilItExits() throws Exception {
        // a pod that, asked to stop, still writes (its last log lines, the JVM writing its start-up cache)
        Process pod = new ProcessBuilder("bash", "-c", "trap 'sleep 0.5; echo last line; exit 0' TERM; echo started;"
                + " while :; do sleep 0.1; done").start();
        java.io.BufferedReader out = new java.io.BufferedReader(new java.io.InputStreamReader(pod.getInputStream(),
                java.nio.charset.StandardCharsets.UTF_8));
        assertThat(out.readLine()).isEqualTo("started");
        java.util.concurrent.CompletableFuture<String> rest = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            try {
                return out.readLine();
            } catch (java.io.IOException e) {
                return "closed: " + e.getMessage();
            }
        });

        UpCommand.terminate(java.util.List.of(pod), 30);

        assertThat(pod.exitValue()).as("not killed by a broken pipe (141)").isZero();
        assertThat(rest.get(10, java.util.concurrent.TimeUnit.SECONDS)).isEqualTo("last line");
    }

    @Test
    void copyingAPodsOutputLeavesTheVirtualThreadCarriersFree() throws Exception {
        // one carrier and no spare stands for the scheduler after it has retired its idle carriers
        Process check = new ProcessBuilder(UpProcess.java(), "-cp", System.getProperty("java.class.path"),
                "-Djdk.virtualThreadScheduler.parallelism=1", "-Djdk.virtualThreadScheduler.maxPoolSize=1",
                PipeStarvationCheck.class.getName()).redirectErrorStream(true).start();

        assertThat(check.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        assertThat(check.exitValue()).as(new String(check.getInputStream().readAllBytes(),
                java.nio.charset.StandardCharsets.UTF_8)).isZero();
    }

    @Test
    void anInvalidSegmentIsRefusedBeforeAnyPodStarts() {
        Settings settings = Settings.of(Map.of("pylon.path.segment", "a/b"));

        assertThatThrownBy(() -> UpCommand.paths(settings)).isInstanceOf(InvalidSettingException.class)
                .hasMessageContaining("pylon.path.segment");
    }
}
