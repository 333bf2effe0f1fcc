package io.pylon.core.health;

import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The pod's health checks. Checks run in parallel on the async executor, each with the same timeout; a check that is
 * still running from an earlier run is not started again (a stuck dependency cannot pile up threads).
 *
 * <p>Once {@link #refreshEvery} has started, every check runs in the background every time-to-live and callers get
 * the latest results without waiting for a check: a probe's request thread never parks on a check's future, which
 * under load would hand it back to a virtual-thread scheduler busy with the gateway's threads (hundreds of
 * milliseconds on one core). A result is then at most the time-to-live plus its run's duration old; a check whose run
 * has taken longer than the timeout reports DOWN (timed out) at once. A caller only waits for a run when there is no
 * usable result: before the first run, when the background runs stopped, and with a time-to-live of zero (every call
 * runs the checks, as tests want).
 *
 * <p>Threading: checks are registered while the pod starts (a copy-on-write list) and evaluated concurrently by
 * request threads and the refresh task. Each check's runner starts runs under its own monitor; its latest run and
 * its cached result are volatile immutable values read without the lock. Checks run on the async executor (or a
 * virtual thread when it refuses). The last report per probe is a benign race: any thread may replace it with an
 * equal one.
 */
public final class HealthRegistry {
    /** What a run that failed after its check reports; built ahead, as building it may be what failed. */
    private static final CheckResult RUN_FAILED = CheckResult.down(Map.of("error", "check run failed"));
    private final List<Runner> runners = new CopyOnWriteArrayList<>();
    private final ExecutorService executor;
    private final long timeoutNanos;
    private final long ttlNanos;
    // The last report per probe (index 0: every check); handed out again while its results are the same objects,
    // so that callers can reuse what they derived from it (the endpoint reuses its serialized bytes).
    private final HealthReport[] lastReports = new HealthReport[HealthCheck.Probe.values().length + 1];
    private volatile boolean refreshing;

    public HealthRegistry(ExecutorService executor, Duration timeout, Duration ttl) {
        this.executor = executor;
        this.timeoutNanos = timeout.toNanos();
        this.ttlNanos = ttl.toNanos();
    }

    public void register(HealthCheck check) {
        if (runners.stream().anyMatch(r -> r.check.name().equals(check.name()))) {
            throw new IllegalArgumentException("a health check named '" + check.name() + "' is registered already");
        }
        runners.add(new Runner(check));
    }

    /**
     * Runs every check now, waiting for the results (each at most the timeout), and then every time-to-live on the
     * scheduler, so that callers read results instead of waiting for runs. Does nothing with a time-to-live of zero. Call it once the pod's checks are registered (a
     * check registered later joins the next run).
     */
    public void refreshEvery(ScheduledExecutorService scheduler) {
        if (ttlNanos <= 0 || refreshing) {
            return;
        }
        refreshing = true;
        // The first run is awaited here, before the pod takes traffic: it loads the classes of a run and its result
        // while descriptors are free (a class that fails to load, e.g. under "Too many open files", fails for good).
        all();
        scheduler.scheduleWithFixedDelay(this::refresh, ttlNanos, ttlNanos, TimeUnit.NANOSECONDS);
    }

    /** Starts a run of each check that has none in flight; a run past the timeout turns its check DOWN. */
    void refresh() {
        try {
            for (Runner runner : runners) {
                runner.start();
            }
        } catch (RuntimeException e) {
            // a scheduled task that throws is never run again; the next call waits for runs instead
            refreshing = false;
            throw e;
        }
    }

    /** Every check. */
    public HealthReport all() {
        return evaluate(null);
    }

    public HealthReport probe(HealthCheck.Probe probe) {
        return evaluate(probe);
    }

    public List<String> names() {
        return runners.stream().map(r -> r.check.name()).toList();
    }

    private HealthReport evaluate(HealthCheck.@Nullable Probe probe) {
        List<Runner> selected = new ArrayList<>();
        for (Runner runner : runners) {
            if (probe == null || runner.check.probes().contains(probe)) {
                selected.add(runner);
            }
        }
        long now = System.nanoTime();
        List<CompletableFuture<CheckResult>> futures = new ArrayList<>(selected.size());
        for (Runner runner : selected) {
            CheckResult usable = runner.usable(now);
            futures.add(usable != null ? CompletableFuture.completedFuture(usable) : runner.current());
        }
        Map<String, CheckResult> results = new LinkedHashMap<>();
        HealthStatus overall = HealthStatus.UP;
        for (int i = 0; i < selected.size(); i++) {
            Runner runner = selected.get(i);
            CheckResult result = runner.await(futures.get(i));
            results.put(runner.check.name(), result);
            if (result.status() == HealthStatus.DOWN) {
                overall = HealthStatus.DOWN;
            }
        }
        int slot = probe == null ? 0 : probe.ordinal() + 1;
        HealthReport last = lastReports[slot];
        if (last != null && sameResults(last.checks(), results)) {
            return last;
        }
        HealthReport report = new HealthReport(overall, results);
        lastReports[slot] = report;
        return report;
    }

    private static boolean sameResults(Map<String, CheckResult> a, Map<String, CheckResult> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (Map.Entry<String, CheckResult> entry : b.entrySet()) {
            if (a.get(entry.getKey()) != entry.getValue()) {
                return false;
            }
        }
        return true;
    }

    private final class Runner {
        private final HealthCheck check;
        // Read without the lock: a usable result is the common case, and 64 connections asking for health at once
        // would otherwise queue on this monitor once per check and request.
        private volatile @Nullable Run run;
        private volatile @Nullable Cached cached;

        Runner(HealthCheck check) {
            this.check = check;
        }

        /**
         * What a caller gets without waiting, or null when it must wait for a run: DOWN when the run in flight has
         * overrun the timeout; else the cached result while it is younger than the time-to-live, or, while the
         * background runs go on, younger than two time-to-lives plus the timeout (a late run, not a missing one).
         */
        @Nullable CheckResult usable(long now) {
            Run r = run;
            if (r != null && !r.future().isDone() && now - r.startedAt() > timeoutNanos) {
                return r.timedOut();
            }
            Cached c = cached;
            if (c == null) {
                return null;
            }
            long age = now - c.at();
            return age < ttlNanos || (refreshing && age < 2 * ttlNanos + timeoutNanos) ? c.result() : null;
        }

        /** The run in flight, or a new one unless the cached result is younger than the time-to-live. */
        synchronized CompletableFuture<CheckResult> current() {
            long now = System.nanoTime();
            Cached c = cached;
            if (c != null && now - c.at() < ttlNanos) {
                return CompletableFuture.completedFuture(c.result());
            }
            return start().future();
        }

        /** The run in flight, or a new one. */
        synchronized Run start() {
            Run r = run;
            if (r != null && !r.future().isDone()) {
                return r;
            }
            CompletableFuture<CheckResult> future = new CompletableFuture<>();
            Run started = new Run(future, System.nanoTime(), CheckResult.down(Map.of("error",
                    "timed out after " + TimeUnit.NANOSECONDS.toMillis(timeoutNanos) + " ms")));
            run = started;
            Runnable task = () -> {
                CheckResult result = RUN_FAILED;
                try {
                    long t0 = System.nanoTime();
                    try {
                        result = check.check();
                    } catch (Exception | Error e) {
                        result = CheckResult.down(Map.of("error", describe(e)));
                    }
                    result = withDuration(result, System.nanoTime() - t0);
                    cached = new Cached(result, System.nanoTime());
                } finally {
                    // whatever failed after the check (an error of the JVM), the run ends: a run that never ends
                    // would keep its check DOWN ("timed out") for good, as no new run starts while it is in flight
                    future.complete(result);
                }
            };
            try {
                executor.execute(task);
            } catch (RejectedExecutionException e) {
                Thread.ofVirtual().name("health-" + check.name()).start(task);
            }
            return started;
        }

        CheckResult await(CompletableFuture<CheckResult> future) {
            if (future.isDone() && !future.isCompletedExceptionally()) {
                return future.join();
            }
            Run r = run;
            long remaining = r == null ? timeoutNanos : timeoutNanos - (System.nanoTime() - r.startedAt());
            try {
                if (future.isDone()) {
                    return future.get();
                }
                return future.get(Math.max(0, remaining), TimeUnit.NANOSECONDS);
            } catch (TimeoutException e) {
                return CheckResult.down(Map.of("error", "timed out after " + TimeUnit.NANOSECONDS.toMillis(timeoutNanos) + " ms"));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return CheckResult.down(Map.of("error", "interrupted"));
            } catch (ExecutionException e) {
                return CheckResult.down(Map.of("error", describe(e.getCause() != null ? e.getCause() : e)));
            }
        }
    }

    /** One run of a check: its result to come, when it started, and what it reports once it overran the timeout. */
    private record Run(CompletableFuture<CheckResult> future, long startedAt, CheckResult timedOut) {
    }

    private record Cached(CheckResult result, long at) {
    }

    private static CheckResult withDuration(CheckResult result, long nanos) {
        Map<String, Object> details = new LinkedHashMap<>(result.details());
        details.put("durationMs", TimeUnit.NANOSECONDS.toMicros(nanos) / 1000.0);
        return new CheckResult(result.status(), details);
    }

    // The exception type only: messages may carry connection strings or other secrets.
    private static String describe(Throwable t) {
        return "check failed: " + t.getClass().getSimpleName();
    }

    /** Probes for a check that belongs to both. */
    public static Set<HealthCheck.Probe> both() {
        return EnumSet.allOf(HealthCheck.Probe.class);
    }
}
