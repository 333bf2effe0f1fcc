package io.pylon.manager.auth;

import io.helidon.http.Status;
import io.pylon.manager.api.ApiException;

import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The few platform threads that compute Argon2id hashes, with a short queue in front of them. Argon2id is CPU- and
 * memory-bound: run on request virtual threads it would occupy every carrier thread (and stall liveness probes)
 * and need its memory blocks once per concurrent request. Here at most {@code threads} hashes run at once (so
 * their memory is bounded too) and at most {@code queue} wait; a task beyond that is refused at once with 429 and
 * {@code Retry-After}, so that a flood of sign-ins costs the pod a bounded share of its cores.
 *
 * <p>Threading: {@link #run} is called concurrently by request virtual threads, which block (unmounted) until their
 * task is done. Admission is a semaphore of {@code threads + queue} permits, taken on submission and given back when
 * the task ends (also when it is cancelled); the executor is thread-safe.
 */
public final class HashingPool implements AutoCloseable {
    /** What a refused caller is told to wait: about the time the queue needs to drain. */
    static final Duration RETRY_AFTER = Duration.ofSeconds(1);

    private final ThreadPoolExecutor executor;
    // Admission: a task holds a permit from submission until it ends. The executor's own queue cannot decide it: a
    // task handed to an idle thread sits in the queue until the thread takes it, and a task arriving in between found
    // the queue full and was refused with only one task in the pool.
    private final Semaphore admitted;

    public HashingPool(int threads, int queue) {
        this.admitted = new Semaphore(threads + queue);
        this.executor = new ThreadPoolExecutor(threads, threads, 0, TimeUnit.MILLISECONDS,
                new ArrayBlockingQueue<>(threads + queue),
                Thread.ofPlatform().name("manager-argon2-", 1).daemon(true).factory(),
                new ThreadPoolExecutor.AbortPolicy());
    }

    /**
     * Most threads by default: the Argon2 blocks of as many hashes as run at once, 19 MiB each, are kept between
     * hashes (softly referenced, see {@link io.pylon.manager.auth.argon2.PooledArgon2id}), which the pod's heap must
     * hold.
     */
    static final int MAX_DEFAULT_THREADS = 4;

    /**
     * The default size: every core but one, at least one, so that hashing never takes every core; at most
     * {@value #MAX_DEFAULT_THREADS}, so that the blocks of the hashes running at once (76 MiB) fit the Manager's default
     * heap (192 MiB, pylon.pod.heap-max) on a machine of many cores.
     */
    public static int defaultThreads(int processors) {
        return Math.min(MAX_DEFAULT_THREADS, Math.max(1, processors - 1));
    }

    /** Runs the task on the pool and waits for it; 429 at once when the threads are busy and the queue is full. */
    public <T> T run(Callable<T> task) {
        // the permit goes back once: on the pool's thread before the result is published (a caller that got its
        // answer and sends again finds it free), or when the task is cancelled before it ran
        AtomicBoolean released = new AtomicBoolean();
        Runnable release = () -> {
            if (released.compareAndSet(false, true)) {
                admitted.release();
            }
        };
        FutureTask<T> future = new FutureTask<>(() -> {
            try {
                return task.call();
            } finally {
                release.run();
            }
        }) {
            @Override
            protected void done() {
                release.run();
            }
        };
        if (!admitted.tryAcquire()) {
            throw refused(future);
        }
        try {
            executor.execute(future);
        } catch (RejectedExecutionException e) {
            release.run(); // not run, so never done (the pool is closing)
            throw tooManyRequests();
        }
        try {
            return future.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new IllegalStateException("password hashing failed", e.getCause());
        } catch (InterruptedException e) {
            future.cancel(true);
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for password hashing", e);
        }
    }

    /** A refusal, counted as the executor's rejection (its metrics count the sign-ins refused). */
    private RuntimeException refused(Runnable task) {
        try {
            executor.getRejectedExecutionHandler().rejectedExecution(task, executor);
        } catch (RejectedExecutionException e) {
            // the abort policy's way of refusing: the 429 below is the answer
        }
        return tooManyRequests();
    }

    private static ApiException tooManyRequests() {
        return ApiException.retryLater(Status.TOO_MANY_REQUESTS_429, "temporarily_unavailable",
                "Too many passwords are being checked right now; retry in " + RETRY_AFTER.toSeconds() + " s.",
                RETRY_AFTER);
    }

    /** Makes the pool's threads, queue and rejections visible in diagnostics and metrics ({@code manager-argon2}). */
    public void register(io.pylon.core.pod.PodExecutors executors) {
        executors.register("manager-argon2", executor);
    }

    /** How many hashes run at once at most. */
    public int threads() {
        return executor.getCorePoolSize();
    }

    /** Hashes running or waiting now (for tests and diagnostics). */
    public int inFlight() {
        return executor.getActiveCount() + executor.getQueue().size();
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }
}
