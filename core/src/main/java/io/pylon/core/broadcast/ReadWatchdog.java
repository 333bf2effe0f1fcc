package io.pylon.core.broadcast;

import org.jspecify.annotations.Nullable;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Cuts a peer's answer whose reading outlives its budget (the peer client's timeout is per socket read, so a pod
 * dripping a byte at a time would otherwise hold its call up to the broadcast's deadline): the reading thread is
 * interrupted, which closes its socket. One daemon thread per JVM sleeps until the earliest budget; a read that ends
 * in time cancels its entry, which is removed at once. (A {@code CompletableFuture.delayedExecutor} per read kept
 * every cancelled entry queued for the whole per-pod timeout: tens of thousands under a steady broadcast load, a
 * visible share of the aggregator's CPU.)
 *
 * <p>Thread-safe. A {@link Guard} is used by the one thread it guards; the lock in it makes sure that no interrupt
 * lands once {@link Guard#close()} has returned.
 */
final class ReadWatchdog {
    private static final ScheduledThreadPoolExecutor TIMER = timer();

    private ReadWatchdog() {
    }

    private static ScheduledThreadPoolExecutor timer() {
        ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1,
                Thread.ofPlatform().daemon().name("pylon-broadcast-watchdog").factory());
        timer.setRemoveOnCancelPolicy(true);
        timer.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
        return timer;
    }

    /** Guards the calling thread's reads for {@code budgetNanos}; close it when the reading is over. */
    static Guard guard(long budgetNanos) {
        Guard guard = new Guard(Thread.currentThread());
        guard.timeout = TIMER.schedule(guard::expire, budgetNanos, TimeUnit.NANOSECONDS);
        return guard;
    }

    static final class Guard implements AutoCloseable {
        private final Thread reader;
        private @Nullable ScheduledFuture<?> timeout;
        private boolean reading = true;
        private boolean expired;

        private Guard(Thread reader) {
            this.reader = reader;
        }

        private synchronized void expire() {
            if (reading) {
                expired = true;
                reader.interrupt();
            }
        }

        /** Whether the budget ran out while reading (the read then failed, interrupted). */
        synchronized boolean expired() {
            return expired;
        }

        @Override
        public void close() {
            synchronized (this) {
                reading = false;
            }
            ScheduledFuture<?> scheduled = timeout;
            if (scheduled != null) {
                scheduled.cancel(false);
            }
        }
    }
}
