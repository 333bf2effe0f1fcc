package io.pylon.integration.web;

import io.pylon.integration.run.RunListener;
import io.pylon.integration.run.RunOutcome;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Callers of {@code ?wait=} waiting for a run: woken at once when the run ends on this pod; a run that another pod
 * picked is seen by the caller's periodic look at history. At most {@code max} callers wait at once. Thread-safe:
 * a concurrent map of futures and a semaphore.
 */
public final class RunWaiters implements RunListener {
    private final ConcurrentMap<String, CompletableFuture<Void>> waiting = new ConcurrentHashMap<>();
    private final Semaphore permits;

    public RunWaiters(int max) {
        this.permits = new Semaphore(max);
    }

    boolean tryEnter() {
        return permits.tryAcquire();
    }

    void leave(String runId) {
        waiting.remove(runId);
        permits.release();
    }

    /** Waits up to {@code timeout} for the run to end on this pod; false when it did not (or ran elsewhere). */
    boolean await(String runId, Duration timeout) throws InterruptedException {
        CompletableFuture<Void> f = waiting.computeIfAbsent(runId, id -> new CompletableFuture<>());
        try {
            f.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (TimeoutException e) {
            return false;
        } catch (ExecutionException e) {
            return true;
        }
    }

    @Override
    public void started(String flow, String runId, Duration startDelay) {
    }

    @Override
    public void finished(String flow, String runId, RunOutcome outcome) {
        CompletableFuture<Void> f = waiting.get(runId);
        if (f != null) {
            f.complete(null);
        }
    }
}
