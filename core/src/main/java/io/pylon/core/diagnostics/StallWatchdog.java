package io.pylon.core.diagnostics;

import java.time.Duration;

/**
 * Aborts a download that makes no progress. The writing thread calls {@link #progress()} after each chunk it handed
 * to the socket; a virtual thread looks every quarter of the timeout and, when no chunk went out for the whole
 * timeout, interrupts the writer. A blocking socket write on a virtual thread (Helidon serves each connection on
 * one) is interruptible: the JDK closes the socket and the write throws, so the writer's clean-up runs at once
 * instead of when the TCP stack gives up on the peer, minutes later.
 *
 * <p>Threading: {@code progress()} and {@code close()} are called by the writing thread only; the checker reads
 * {@code lastProgress} (volatile) and interrupts while holding the monitor, which {@code close()} also takes, so no
 * interrupt can reach the writer after {@code close()} returned. {@code close()} clears an interrupt it caused.
 */
final class StallWatchdog implements AutoCloseable {
    private final Thread writer = Thread.currentThread();
    private final long timeoutNanos;
    private final Thread checker;
    private volatile long lastProgress = System.nanoTime();
    private boolean closed;
    private boolean fired;

    /** Starts watching the calling thread. */
    StallWatchdog(Duration timeout) {
        this.timeoutNanos = timeout.toNanos();
        long period = Math.max(1, timeout.toMillis() / 4);
        this.checker = Thread.ofVirtual().name("pylon-stall-watchdog").start(() -> watch(period));
    }

    void progress() {
        lastProgress = System.nanoTime();
    }

    /** Whether the watchdog aborted the download. */
    synchronized boolean fired() {
        return fired;
    }

    private void watch(long periodMillis) {
        try {
            while (true) {
                Thread.sleep(periodMillis);
                synchronized (this) {
                    if (closed) {
                        return;
                    }
                    if (System.nanoTime() - lastProgress >= timeoutNanos) {
                        fired = true;
                        writer.interrupt();
                        return;
                    }
                }
            }
        } catch (InterruptedException e) {
            // closed
        }
    }

    @Override
    public void close() {
        synchronized (this) {
            closed = true;
            if (fired) {
                Thread.interrupted();
            }
        }
        checker.interrupt();
    }
}
