package io.pylon.worker.proxy;

import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.io.ModalCloseable;
import org.jspecify.annotations.Nullable;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * The response timeout of one exchange: armed while the gateway waits on its upstream (for the response head, for
 * each read of the response body, for each write of the request body), disarmed while it waits on the client. An
 * armed timeout that comes due is expired by the {@link ResponseTimeouts} sweep, which closes the upstream
 * connection; the exchange's blocked read or write then fails and {@link #expired()} says why.
 *
 * <p>Threading: the exchange's own thread arms, disarms and finishes it; the sweep thread of {@link ResponseTimeouts}
 * reads the volatile due time and expires it; the client connection's thread abandons it when the client leaves.
 * Watching, expiring, abandoning and finishing all hold this object's monitor, so neither the sweep nor a departure
 * ever closes a connection that was already finished and handed back to the pool. The label, upstream and start time
 * are fixed at creation; the diagnostics read them, and the volatile due time ({@link #armed}) and the endpoint
 * (whether it is {@link #connected} yet), from any thread. Whether the attempt is listed in flight is the exchange's
 * thread's alone.
 */
final class ResponseTimeout {
    private static final long DISARMED = Long.MIN_VALUE;
    private static final int WATCHING = 0;
    private static final int EXPIRED = 1;
    private static final int FINISHED = 2;
    private static final int ABANDONED = 3;
    private static final int CUT = 4;

    private final ResponseTimeouts owner;
    private final long timeoutNanos;
    private final ExchangeLabel label;
    private final String upstream;
    private final long createdNanos = System.nanoTime();
    private volatile long dueNanos = DISARMED;
    private volatile int state = WATCHING;
    // what the exchange runs on once it has it; the diagnostics read whether it has it yet
    private volatile @Nullable ModalCloseable endpoint;
    // set by the exchange's thread once the attempt is listed in flight (from its wait for a connection, or from watch)
    private boolean listed;

    /**
     * @param label    the request, for the diagnostics
     * @param upstream the origin of this attempt's upstream, for the diagnostics
     */
    ResponseTimeout(ResponseTimeouts owner, long timeoutNanos, ExchangeLabel label, String upstream) {
        this.owner = owner;
        this.timeoutNanos = timeoutNanos;
        this.label = label;
        this.upstream = upstream;
    }

    ExchangeLabel label() {
        return label;
    }

    String upstream() {
        return upstream;
    }

    /** When this attempt began ({@link System#nanoTime}). */
    long createdNanos() {
        return createdNanos;
    }

    /** Whether the attempt has its upstream connection or stream yet (else it waits for one, or connects). */
    boolean connected() {
        return endpoint != null;
    }

    /**
     * The attempt waits for a pooled connection (or an HTTP/2 stream) and, if it gets none free, connects: listed in
     * flight from now, unarmed (the response timeout starts with {@link #watch}; the lease timeout bounds the wait).
     * Whatever follows ends in {@link #finish}.
     */
    void awaitConnection() {
        listed = true;
        owner.add(this);
    }

    /** Whether the gateway is waiting on the upstream now (else on the client, or relaying between them). */
    boolean armed() {
        return dueNanos != DISARMED;
    }

    /**
     * Starts watching what the exchange runs on, armed from now: its HTTP/1.1 connection, or its HTTP/2 stream (whose
     * close resets the stream alone).
     */
    void watch(ModalCloseable endpoint) {
        synchronized (this) {
            this.endpoint = endpoint;
            if (state == ABANDONED) {
                endpoint.close(CloseMode.IMMEDIATE); // the client left while the connection was being made
                return;
            }
        }
        arm();
        if (!listed) {
            listed = true;
            owner.add(this);
        }
    }

    /**
     * The client left ({@link io.pylon.core.http.ClientDeparture}): the upstream connection is closed, as an expired
     * timeout's is, so that the exchange's blocked read or write fails at once; {@link #abandoned()} says why.
     * Called on the client connection's thread.
     */
    void abandon() {
        closeAs(ABANDONED);
    }

    /**
     * Reading the client's body failed (it was malformed, too large, too slow, or the client left): the upstream
     * connection is closed before HttpClient ends the body it was writing, so that a chunked body cut short never
     * reaches the upstream as a whole one (its last chunk written as the stream closes). Called on the exchange's thread.
     */
    void cutUpstream() {
        closeAs(CUT);
    }

    /** Whether the connection was closed because the client left. */
    boolean abandoned() {
        return state == ABANDONED;
    }

    /** The gateway starts waiting on the upstream: the full timeout from now. */
    void arm() {
        dueNanos = System.nanoTime() + timeoutNanos;
    }

    /** The gateway waits on the client, not the upstream: that time does not count. */
    void disarm() {
        dueNanos = DISARMED;
    }

    /** Whether the sweep closed the connection because the upstream stayed silent too long. */
    boolean expired() {
        return state == EXPIRED;
    }

    /**
     * The exchange is over and stops being watched. Returns false if the timeout had already expired, in which case
     * the connection is closed and must not go back to the pool.
     */
    boolean finish() {
        boolean finished;
        // under the lock the sweep closes with: once this returns, the sweep can no longer touch the connection,
        // which may go back to the pool and to another request
        synchronized (this) {
            finished = state == WATCHING;
            if (finished) {
                state = FINISHED;
            }
        }
        if (listed) {
            owner.remove(this);
        }
        return finished;
    }

    /** {@code in} with this timeout armed during each read (an upstream's response body). */
    InputStream reads(InputStream in) {
        return new FilterInputStream(in) {
            @Override
            public int read() throws IOException {
                arm();
                try {
                    return in.read();
                } finally {
                    disarm();
                }
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                arm();
                try {
                    return in.read(b, off, len);
                } finally {
                    disarm();
                }
            }
        };
    }

    void expireIfDue(long now) {
        long due = dueNanos;
        if (due == DISARMED || now - due < 0) {
            return;
        }
        closeAs(EXPIRED);
    }

    /** Ends the watch in {@code reason}'s state and closes the connection, unless the watch ended already. */
    private void closeAs(int reason) {
        synchronized (this) {
            if (state != WATCHING) {
                return;
            }
            state = reason;
            // null only when the client left while the connection was being made: watch() closes it then
            ModalCloseable watched = endpoint;
            if (watched != null) {
                watched.close(CloseMode.IMMEDIATE);
            }
        }
        owner.remove(this);
    }
}
