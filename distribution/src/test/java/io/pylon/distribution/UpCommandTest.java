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
    void podsStopClientsFirstAndEachIntegrationAndCachePodAlone() throws Exception {
        Process any = new ProcessBuilder("true").start();
        java.util.List<UpCommand.Child> children = LocalPlan.create("127.0.16.1").stream()
                .map(pod -> new UpCommand.Child(pod, any, false, new java.util.concurrent.CompletableFuture<>())).toList();

        assertThat(UpCommand.stopOrder(children, java.util.OptionalLong.empty()).stream()
                .map(tier -> tier.stream().map(c -> c.pod().name()).toList()))
                .containsExactly(java.util.List.of("worker-0", "worker-1", "portal"), java.util.List.of("integration-1"),
                        java.util.List.of("integration-0"), java.util.List.of("manager"), java.util.List.of("cache-1"),
                        java.util.List.of("cache-0"));
    }

    @Test
    void theIntegrationPodServingTheSharedDatabaseStopsLast() throws Exception {
        java.util.List<UpCommand.Child> children = new java.util.ArrayList<>();
        for (LocalPod pod : LocalPlan.create("127.0.16.1")) {
            children.add(new UpCommand.Child(pod, new ProcessBuilder("sleep", "30").start(), false,
                    new java.util.concurrent.CompletableFuture<>()));
        }
        try {
            long second = children.stream().filter(c -> c.pod().name().equals("integration-0")).findFirst().orElseThrow()
                    .process().pid();

            assertThat(UpCommand.stopOrder(children, java.util.OptionalLong.of(second)).stream()
                    .map(tier -> tier.stream().map(c -> c.pod().name()).toList()))
                    .containsSubsequence(java.util.List.of("integration-1"), java.util.List.of("integration-0"));
            long first = children.stream().filter(c -> c.pod().name().equals("integration-1")).findFirst().orElseThrow()
                    .process().pid();
            assertThat(UpCommand.stopOrder(children, java.util.OptionalLong.of(first)).stream()
                    .map(tier -> tier.stream().map(c -> c.pod().name()).toList()))
                    .containsSubsequence(java.util.List.of("integration-0"), java.util.List.of("integration-1"))
                    .containsSubsequence(java.util.List.of("integration-1"), java.util.List.of("manager"));
        } finally {
            children.forEach(c -> c.process().destroyForcibly());
        }
    }

    @Test
    void theNextTierIsStoppedOnceThePodsBeforeSaidTheyStoppedNotWhenTheyExit() throws Exception {
        java.nio.file.Path marks = java.nio.file.Files.createTempDirectory("pylon-stop-order");
        UpCommand up = new UpCommand();
        // a Worker that says it stopped 1 s after SIGTERM and exits 2 s later (its JVM writing its start-up cache)
        UpCommand.Child worker = child(up, "worker", "worker-0", "trap 'sleep 1; date +%s%N > " + marks.resolve("said")
                + "; echo \"INFO io.pylon.core.server.Pod - Pod worker-0 stopped after finishing 3 requests\"; sleep 2;"
                + " date +%s%N > " + marks.resolve("exited") + "; exit 0' TERM; while :; do sleep 0.05; done");
        UpCommand.Child cache = child(up, "cache", "cache-0", "trap 'date +%s%N > " + marks.resolve("cache")
                + "; exit 0' TERM; while :; do sleep 0.05; done");
        Thread.sleep(300); // the traps are set

        UpCommand.stopInOrder(UpCommand.stopOrder(java.util.List.of(cache, worker), java.util.OptionalLong.empty()), 30);

        long said = mark(marks, "said");
        long cacheTerm = mark(marks, "cache");
        assertThat(cacheTerm).as("the cache pod gets SIGTERM after the Worker said it stopped").isGreaterThanOrEqualTo(said);
        assertThat(cacheTerm).as("and before the Worker's process ended").isLessThan(mark(marks, "exited"));
        assertThat(worker.process().isAlive()).isFalse();
        assertThat(cache.process().isAlive()).isFalse();
    }

    private static UpCommand.Child child(UpCommand up, String module, String name, String script) throws Exception {
        Process process = new ProcessBuilder("bash", "-c", script).start();
        UpCommand.Child child = new UpCommand.Child(new LocalPod(module, name, "127.0.16.9", 1), process, false,
                new java.util.concurrent.CompletableFuture<>());
        up.pipe(process.getInputStream(), name + " | ", name, child.stopped());
        process.onExit().thenRun(() -> child.stopped().complete(null));
        return child;
    }

    private static long mark(java.nio.file.Path marks, String name) throws Exception {
        return Long.parseLong(java.nio.file.Files.readString(marks.resolve(name)).strip());
    }

    @Test
    void anInvalidSegmentIsRefusedBeforeAnyPodStarts() {
        Settings settings = Settings.of(Map.of("pylon.path.segment", "a/b"));

        assertThatThrownBy(() -> UpCommand.paths(settings)).isInstanceOf(InvalidSettingException.class)
                .hasMessageContaining("pylon.path.segment");
    }
}
