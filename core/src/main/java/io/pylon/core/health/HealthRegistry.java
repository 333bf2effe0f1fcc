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
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The pod's health checks. Checks run in parallel, each with the same timeout; a result is reused for a short
 * time-to-live so that probes and load never run a check on every request; a check that is still running from an
 * earlier call is not started again (a stuck dependency cannot pile up threads) and reports DOWN until it returns.
 *
 * <p>Threading: checks are registered while the pod starts (a copy-on-write list) and evaluated concurrently by
 * request threads. Each check's runner guards its running future and start time with its own monitor; its cached
 * result is a volatile immutable value read without the lock. Checks run on the async executor (or a virtual thread
 * when it refuses).
 */
public final class HealthRegistry {
    private final List<Runner> runners = new CopyOnWriteArrayList<>();
    private final ExecutorService executor;
    private final long timeoutNanos;
    private final long ttlNanos;
    // The last report per probe (index 0: every check); handed out again while its results are the same objects,
    // so that callers can reuse what they derived from it (the endpoint reuses its serialized bytes).
    private final HealthReport[] lastReports = new HealthReport[HealthCheck.Probe.values().length + 1];

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
            CheckResult fresh = runner.fresh(now);
            futures.add(fresh != null ? CompletableFuture.completedFuture(fresh) : runner.current());
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
        private @Nullable CompletableFuture<CheckResult> inFlight;
        private long startedAt;
        // Read without the lock: a fresh result is the common case, and 64 connections asking for health at once
        // would otherwise queue on this monitor once per check and request.
        private volatile @Nullable Cached cached;

        Runner(HealthCheck check) {
            this.check = check;
        }

        /** The cached result while it is younger than the time-to-live, else null. */
        @Nullable CheckResult fresh(long now) {
            Cached c = cached;
            return c != null && now - c.at() < ttlNanos ? c.result() : null;
        }

        synchronized CompletableFuture<CheckResult> current() {
            long now = System.nanoTime();
            CheckResult fresh = fresh(now);
            if (fresh != null) {
                return CompletableFuture.completedFuture(fresh);
            }
            if (inFlight != null && !inFlight.isDone()) {
                return inFlight;
            }
            startedAt = now;
            CompletableFuture<CheckResult> future = new CompletableFuture<>();
            inFlight = future;
            Runnable task = () -> {
                long t0 = System.nanoTime();
                CheckResult result;
                try {
                    result = check.check();
                } catch (Exception | Error e) {
                    result = CheckResult.down(Map.of("error", describe(e)));
                }
                result = withDuration(result, System.nanoTime() - t0);
                remember(result);
                future.complete(result);
            };
            try {
                executor.execute(task);
            } catch (RejectedExecutionException e) {
                Thread.ofVirtual().name("health-" + check.name()).start(task);
            }
            return future;
        }

        private void remember(CheckResult result) {
            cached = new Cached(result, System.nanoTime());
        }

        CheckResult await(CompletableFuture<CheckResult> future) {
            if (future.isDone() && !future.isCompletedExceptionally()) {
                return future.join();
            }
            long remaining;
            synchronized (this) {
                remaining = timeoutNanos - (System.nanoTime() - startedAt);
            }
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
