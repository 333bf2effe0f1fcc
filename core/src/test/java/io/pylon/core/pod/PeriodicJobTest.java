package io.pylon.core.pod;

import io.pylon.core.server.Pod;
import io.pylon.core.testing.FakeModule;
import io.pylon.core.testing.TestPods;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

class PeriodicJobTest {
    @Test
    void closingWaitsForTheRunInProgressAndNoRunStartsAfter() throws Exception {
        ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor();
        try {
            AtomicInteger runs = new AtomicInteger();
            AtomicBoolean inRun = new AtomicBoolean();
            CountDownLatch started = new CountDownLatch(1);
            PeriodicJob job = PeriodicJob.schedule(executor, "a slow job", Duration.ZERO, Duration.ofMillis(10), () -> {
                inRun.set(true);
                runs.incrementAndGet();
                started.countDown();
                sleep(300);
                inRun.set(false);
            });
            assertThat(started.await(5, TimeUnit.SECONDS)).isTrue();
            job.close();
            assertThat(inRun).as("close returns once the run ended").isFalse();
            int seen = runs.get();
            Thread.sleep(100);
            assertThat(runs.get()).isEqualTo(seen);
        } finally {
            executor.shutdownNow();
        }
    }

    @Test
    void aRunThatThrowsDoesNotEndTheJob() throws Exception {
        ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor();
        try {
            AtomicInteger runs = new AtomicInteger();
            PeriodicJob job = PeriodicJob.schedule(executor, "a failing job", Duration.ZERO, Duration.ofMillis(5), () -> {
                runs.incrementAndGet();
                throw new IllegalStateException("the database is away");
            });
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (runs.get() < 3 && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            job.close();
            assertThat(runs.get()).isGreaterThanOrEqualTo(3);
        } finally {
            executor.shutdownNow();
        }
    }

    @Test
    void aModulesJobStopsBeforeTheResourcesItWorksOnClose() {
        AtomicBoolean resourceClosed = new AtomicBoolean();
        AtomicBoolean ranOnAClosedResource = new AtomicBoolean();
        AtomicInteger runs = new AtomicInteger();
        Pod pod = TestPods.start(new FakeModule("worker").onStart(context -> {
            context.onStop(() -> { // the database, opened first: its pool takes a while to close
                resourceClosed.set(true);
                sleep(200);
            });
            context.every("Using the resource", Duration.ZERO, Duration.ofMillis(1), () -> {
                if (resourceClosed.get()) {
                    ranOnAClosedResource.set(true);
                }
                runs.incrementAndGet();
                sleep(20);
            });
        }), "periodic-job", Map.of());
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (runs.get() < 5 && System.nanoTime() < deadline) {
            sleep(5);
        }
        pod.stop();
        sleep(100);
        assertThat(resourceClosed).isTrue();
        assertThat(runs.get()).isGreaterThanOrEqualTo(5);
        assertThat(ranOnAClosedResource).as("a run after the resource closed").isFalse();
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
