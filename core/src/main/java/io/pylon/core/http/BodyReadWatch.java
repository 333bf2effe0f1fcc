package io.pylon.core.http;

import org.jspecify.annotations.Nullable;

import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Bounds how long a read of a request body waits for the client's next bytes where the connection cannot: on HTTP/2
 * the connection reads frames for all its streams, so a stream whose client stopped sending its body leaves no silent
 * socket to time out, and Helidon 4.5.0 waits for its next DATA frame without a bound. A read that waited longer than
 * the timeout is interrupted and fails with {@link RequestBodyTimeoutException} (answered 408), as nginx's
 * {@code client_body_timeout} ends such a stream. {@link #sweep} finds those reads; the pod runs it with its
 * connection timeouts.
 *
 * <p>Threading: a guarded body is read by one thread at a time, which registers each waiting read in a concurrent
 * set; the sweep runs on one thread. A read's thread and start are guarded by the read's own monitor, under which the
 * sweep marks a waiting read timed out and interrupts its thread, so an interrupt never reaches a thread that has left
 * the read (the read clears it on the way out).
 */
public final class BodyReadWatch {
    private final long timeoutNanos;
    private final Duration timeout;
    private final Set<GuardedBody> waiting = ConcurrentHashMap.newKeySet();

    public BodyReadWatch(Duration timeout) {
        this.timeout = timeout;
        this.timeoutNanos = timeout.toNanos();
    }

    /** The body stream, its reads bounded by the timeout. */
    public InputStream guard(InputStream body) {
        return new GuardedBody(body);
    }

    /** Interrupts every read that has waited longer than the timeout at {@code now} ({@link System#nanoTime()}). */
    public void sweep(long now) {
        for (GuardedBody body : waiting) {
            body.expire(now);
        }
    }

    /** Reads waiting for the client now. */
    public int waiting() {
        return waiting.size();
    }

    @FunctionalInterface
    private interface Wait {
        int call() throws IOException;
    }

    private final class GuardedBody extends InputStream {
        private final InputStream in;
        private @Nullable Thread reader; // guarded by this
        private long since; // guarded by this
        private volatile boolean timedOut;

        GuardedBody(InputStream in) {
            this.in = in;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            int n = read(one, 0, 1);
            return n < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (timedOut) {
                throw new RequestBodyTimeoutException(timeout);
            }
            // an interrupted read of Helidon's HTTP/2 stream ends as if the body were complete: never pass that on
            return bounded(() -> in.read(b, off, len));
        }

        /** Helidon's close reads on to the body's end: bounded like a read, and skipped once one timed out. */
        @Override
        public void close() throws IOException {
            if (!timedOut) {
                bounded(() -> {
                    in.close();
                    return 0;
                });
            }
        }

        /** Runs a call that waits for the client, registered while it waits; fails if the sweep ended the wait. */
        private int bounded(Wait wait) throws IOException {
            begin();
            int n;
            try {
                n = wait.call();
            } catch (IOException | RuntimeException e) {
                if (end()) {
                    throw new RequestBodyTimeoutException(timeout);
                }
                throw e;
            }
            if (end()) {
                throw new RequestBodyTimeoutException(timeout);
            }
            return n;
        }

        private void begin() {
            synchronized (this) {
                reader = Thread.currentThread();
                since = System.nanoTime();
            }
            waiting.add(this);
        }

        /** Whether the read timed out; clears the interrupt the sweep sent for it. */
        private boolean end() {
            waiting.remove(this);
            synchronized (this) {
                reader = null;
                if (timedOut) {
                    Thread.interrupted();
                }
                return timedOut;
            }
        }

        void expire(long now) {
            synchronized (this) {
                Thread waiter = reader;
                if (waiter != null && !timedOut && now - since > timeoutNanos) {
                    timedOut = true;
                    waiter.interrupt();
                }
            }
        }
    }
}
