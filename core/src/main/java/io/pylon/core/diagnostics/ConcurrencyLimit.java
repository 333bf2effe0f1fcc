package io.pylon.core.diagnostics;

import org.jspecify.annotations.Nullable;

import java.util.concurrent.Semaphore;

/**
 * A fixed number of concurrent callers of something expensive; the next one is refused at once rather than queued,
 * so a burst of callers can never pile up threads or memory on the pod.
 *
 * <p>Threading: {@link #enter} is called concurrently by request threads; the semaphore counts the permits. A {@link
 * Permit} may be closed from any thread, more than once: its monitor makes the release happen once.
 */
final class ConcurrencyLimit {
    private final Semaphore permits;
    private final int limit;
    private final String what;
    private final int retryAfterSeconds;

    ConcurrencyLimit(int limit, String what, int retryAfterSeconds) {
        this.permits = new Semaphore(limit);
        this.limit = limit;
        this.what = what;
        this.retryAfterSeconds = retryAfterSeconds;
    }

    /** A permit to release with {@code close()}; throws {@link DiagnosticsBusyException} when none is free. */
    Permit enter() {
        if (!permits.tryAcquire()) {
            throw new DiagnosticsBusyException("This pod already builds " + limit + " " + what
                    + " at a time; retry in " + retryAfterSeconds + " s.", retryAfterSeconds);
        }
        return new Permit(permits);
    }

    /** Released exactly once, however often it is closed. */
    static final class Permit implements AutoCloseable {
        private @Nullable Semaphore permits;

        private Permit(Semaphore permits) {
            this.permits = permits;
        }

        @Override
        public synchronized void close() {
            if (permits != null) {
                permits.release();
                permits = null;
            }
        }
    }
}
