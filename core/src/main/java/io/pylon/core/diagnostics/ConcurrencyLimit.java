package io.pylon.core.diagnostics;

import java.util.concurrent.Semaphore;

/**
 * A fixed number of concurrent callers of something expensive; the next one is refused at once rather than queued,
 * so a burst of callers can never pile up threads or memory on the pod.
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
        private Semaphore permits;

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
