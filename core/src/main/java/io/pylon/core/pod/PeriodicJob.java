package io.pylon.core.pod;

import org.jspecify.annotations.Nullable;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A module's periodic job on the pod's maintenance executor, stopped with the module's resources: closing it cancels
 * the next runs and waits (at most {@value #MAX_WAIT_SECONDS} s) for a run in progress, so that a job never works on
 * a database pool or grid client that the pod's stop has closed. A run that throws is logged and the job goes on
 * (a {@link ScheduledExecutorService} would drop every later run without a word).
 *
 * <p>Threading: runs on the executor's threads, one at a time; {@link #close()} on the stopping thread. The lock is
 * held by a run and taken by the close to wait for it; {@code closed} is volatile.
 */
public final class PeriodicJob implements Runnable, AutoCloseable {
    private static final System.Logger LOG = System.getLogger(PeriodicJob.class.getName());
    private static final long MAX_WAIT_SECONDS = 5;

    private final String name;
    private final Runnable job;
    private final ReentrantLock running = new ReentrantLock();
    private volatile boolean closed;
    private volatile @Nullable ScheduledFuture<?> future;

    private PeriodicJob(String name, Runnable job) {
        this.name = name;
        this.job = job;
    }

    /** Runs {@code job} every {@code period} (between the end of a run and the start of the next) after {@code initialDelay}. */
    public static PeriodicJob schedule(ScheduledExecutorService executor, String name, Duration initialDelay,
                                       Duration period, Runnable job) {
        PeriodicJob periodic = new PeriodicJob(name, job);
        periodic.future = executor.scheduleWithFixedDelay(periodic, initialDelay.toMillis(), period.toMillis(),
                TimeUnit.MILLISECONDS);
        return periodic;
    }

    @Override
    public void run() {
        if (closed) {
            return;
        }
        running.lock();
        try {
            if (!closed) {
                job.run();
            }
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, name + " failed: " + e);
        } finally {
            running.unlock();
        }
    }

    /** No run starts from now on; returns once a run in progress ended (or after the wait's bound). */
    @Override
    public void close() throws InterruptedException {
        closed = true;
        ScheduledFuture<?> scheduled = future;
        if (scheduled != null) {
            scheduled.cancel(false);
        }
        if (running.tryLock(MAX_WAIT_SECONDS, TimeUnit.SECONDS)) {
            running.unlock();
        } else {
            LOG.log(Level.WARNING, name + " still runs after " + MAX_WAIT_SECONDS + " s: the pod stops beside it");
        }
    }
}
