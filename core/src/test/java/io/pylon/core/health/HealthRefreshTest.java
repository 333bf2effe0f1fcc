package io.pylon.core.health;

import com.fasterxml.jackson.databind.JsonNode;
import io.pylon.core.http.Json;
import io.pylon.core.server.Pod;
import io.pylon.core.testing.FakeModule;
import io.pylon.core.testing.TestPods;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Health with a time-to-live, as a pod runs it (the other pod tests run every check on each call): the checks run in
 * the background, a probe answers with the latest results without waiting for a run, a change shows within the
 * time-to-live plus the run, and a hung check turns DOWN once it overran the timeout without holding the probe.
 */
class HealthRefreshTest {
    private static final String HEALTH = "/platform/management/health";
    private Pod pod;
    private final CountDownLatch release = new CountDownLatch(1);

    @AfterEach
    void stop() {
        release.countDown();
        if (pod != null) {
            pod.stop();
        }
    }

    private Pod start(HealthCheck check, String ttl, String timeout) {
        return TestPods.start(new FakeModule("worker").withCheck(check), "p",
                Map.of("pylon.health.cache-ttl", ttl, "pylon.health.check-timeout", timeout));
    }

    /** The probe with a client deadline well under the check timeout: a probe that waited for a run fails here. */
    private HttpResponse<String> probe(Duration deadline) {
        return TestPods.send(HttpRequest.newBuilder(URI.create(TestPods.baseUrl(pod) + HEALTH)).timeout(deadline)
                .GET().build());
    }

    private static JsonNode check(HttpResponse<String> response, String name) throws Exception {
        return Json.MAPPER.readTree(response.body()).path("checks").path(name);
    }

    @Test
    void checksRunInTheBackgroundWithoutAnyCaller() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        CountDownLatch fiveRuns = new CountDownLatch(5);
        pod = start(check("counted", () -> {
            runs.incrementAndGet();
            fiveRuns.countDown();
            return CheckResult.up(Map.of());
        }), "100ms", "2s");
        // nobody calls health: the runs come from the pod itself, once per time-to-live
        assertThat(fiveRuns.await(30, TimeUnit.SECONDS)).as("runs of the check without a caller").isTrue();
        int before = runs.get();
        for (int i = 0; i < 20; i++) {
            assertThat(TestPods.get(pod, HEALTH).statusCode()).isEqualTo(200);
        }
        // twenty calls start no run of their own (at most the background's few meanwhile)
        assertThat(runs.get() - before).isLessThan(20);
    }

    @Test
    void aCheckThatTurnsDownIsSeenWithinTheTimeToLivePlusItsRun() throws Exception {
        AtomicBoolean healthy = new AtomicBoolean(true);
        pod = start(check("toggle", () -> CheckResult.of(healthy.get(), Map.of())), "200ms", "2s");
        assertThat(TestPods.get(pod, HEALTH).statusCode()).isEqualTo(200);
        healthy.set(false);
        long t0 = System.nanoTime();
        HttpResponse<String> response = TestPods.get(pod, HEALTH);
        while (response.statusCode() == 200 && System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(30)) {
            Thread.sleep(20);
            response = TestPods.get(pod, HEALTH);
        }
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertThat(response.statusCode()).isEqualTo(503);
        assertThat(check(response, "toggle").path("status").asText()).isEqualTo("DOWN");
        // the bound is 200 ms plus a run of microseconds; the margin is for a loaded machine's scheduling
        assertThat(ms).as("ms until the DOWN was seen").isLessThan(5_000);
        healthy.set(true);
        long t1 = System.nanoTime();
        while (TestPods.get(pod, HEALTH).statusCode() == 503 && System.nanoTime() - t1 < TimeUnit.SECONDS.toNanos(30)) {
            Thread.sleep(20);
        }
        assertThat(TestPods.get(pod, HEALTH).statusCode()).isEqualTo(200);
    }

    @Test
    void aRunningCheckDoesNotHoldTheProbeAndTurnsDownOnceItOverranTheTimeout() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        CountDownLatch hanging = new CountDownLatch(1);
        pod = start(check("hangs", () -> {
            if (runs.incrementAndGet() >= 3) {
                hanging.countDown();
                release.await(); // every run from the third on hangs until the test ends
            }
            return CheckResult.up(Map.of());
        }), "100ms", "3s");
        long t0 = System.nanoTime();
        while (!hanging.await(50, TimeUnit.MILLISECONDS) && System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(30)) {
            assertThat(probe(Duration.ofMillis(2_500)).statusCode()).isEqualTo(200);
        }
        assertThat(hanging.getCount()).as("the third run started").isZero();
        long hungAt = System.nanoTime();
        // while the run hangs under the timeout, the probe answers at once with the last result
        HttpResponse<String> during = probe(Duration.ofMillis(2_500));
        long duringMs = (System.nanoTime() - hungAt) / 1_000_000;
        if (duringMs < 3_000) {
            assertThat(during.statusCode()).isEqualTo(200);
            assertThat(check(during, "hangs").path("status").asText()).isEqualTo("UP");
        }
        // once the run overran the timeout, the check is DOWN, still without holding the probe
        HttpResponse<String> response = probe(Duration.ofMillis(2_500));
        while (response.statusCode() == 200 && System.nanoTime() - hungAt < TimeUnit.SECONDS.toNanos(30)) {
            Thread.sleep(50);
            response = probe(Duration.ofMillis(2_500));
        }
        long downMs = (System.nanoTime() - hungAt) / 1_000_000;
        assertThat(response.statusCode()).isEqualTo(503);
        assertThat(check(response, "hangs").path("error").asText()).isEqualTo("timed out after 3000 ms");
        assertThat(downMs).as("ms from the hang to DOWN").isGreaterThanOrEqualTo(2_900);
        // the hung run is not started again
        assertThat(runs.get()).isEqualTo(3);
        // the run returns: the check is UP again with the next result
        release.countDown();
        long t1 = System.nanoTime();
        while (probe(Duration.ofSeconds(10)).statusCode() == 503 && System.nanoTime() - t1 < TimeUnit.SECONDS.toNanos(30)) {
            Thread.sleep(50);
        }
        assertThat(probe(Duration.ofSeconds(10)).statusCode()).isEqualTo(200);
    }

    @Test
    void thePodListensOnlyOnceTheFirstRunEnded() {
        AtomicInteger ended = new AtomicInteger();
        pod = start(check("slow-first", () -> {
            if (ended.get() == 0) {
                Thread.sleep(300);
            }
            ended.incrementAndGet();
            return CheckResult.up(Map.of());
        }), "10s", "2s");
        // the first run loads the classes of a run while descriptors are free (DescriptorExhaustionTest)
        assertThat(ended.get()).as("runs ended when the pod started listening").isGreaterThanOrEqualTo(1);
    }

    /** A run that fails after its check (here a check answering nothing) still ends: the next run happens. */
    @Test
    void aRunThatFailsAfterItsCheckStillEnds() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        pod = start(check("broken-twice", () -> {
            int run = runs.incrementAndGet();
            return run == 2 || run == 3 ? nothing() : CheckResult.up(Map.of());
        }), "100ms", "1s");
        long t0 = System.nanoTime();
        HttpResponse<String> response = probe(Duration.ofSeconds(5));
        while ((runs.get() < 5 || response.statusCode() != 200) && System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(30)) {
            Thread.sleep(20);
            response = probe(Duration.ofSeconds(5));
        }
        // a run that never ended would stop the runs at two, the check DOWN ("timed out") for good
        assertThat(runs.get()).as("runs of the check").isGreaterThanOrEqualTo(5);
        assertThat(response.statusCode()).isEqualTo(200);
    }

    @SuppressWarnings("NullAway") // a broken check, as a third-party check could be
    private static CheckResult nothing() {
        return null;
    }

    @Test
    void withoutATimeToLiveEveryCallRunsTheChecks() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        pod = start(check("counted", () -> {
            runs.incrementAndGet();
            return CheckResult.up(Map.of());
        }), "0ms", "2s");
        Thread.sleep(300);
        int before = runs.get();
        for (int i = 0; i < 5; i++) {
            assertThat(TestPods.get(pod, HEALTH).statusCode()).isEqualTo(200);
        }
        assertThat(runs.get() - before).isEqualTo(5);
    }

    @FunctionalInterface
    interface CheckBody {
        CheckResult run() throws Exception;
    }

    static HealthCheck check(String name, CheckBody body) {
        return new HealthCheck() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public Set<Probe> probes() {
                return Set.of(Probe.READINESS);
            }

            @Override
            public CheckResult check() throws Exception {
                return body.run();
            }
        };
    }
}
