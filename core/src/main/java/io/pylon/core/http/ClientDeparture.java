package io.pylon.core.http;

import java.util.concurrent.atomic.AtomicReference;

/**
 * Tells a request's handler that its client left before the answer ended, while the handler waits on something else
 * (an upstream): on HTTP/2, the client reset the request's stream or its connection ended; on HTTP/1, the client
 * closed or reset its connection. The listener learns it from the frames it reads and from the connection's end, and
 * on HTTP/1 by reading ahead on a connection whose request waits for its answer ({@link #awaited}) longer than a
 * sweep of the listener's guard (a quarter of a second). A handler that would otherwise learn it only from its next
 * write to the client (which may be minutes away behind a slow upstream) stops instead, as nginx does. A handler
 * finds its request's through the pod's {@link ClientDepartures}.
 *
 * <p>Threading: the request's thread sets and clears the action; the connection's thread (or the one ending it) calls
 * {@link #depart}. The action is taken from an atomic reference, so it runs at most once, on whichever thread comes
 * second.
 */
public final class ClientDeparture {
    private static final Runnable NONE = () -> { };
    private final AtomicReference<Runnable> action = new AtomicReference<>(NONE);
    private volatile boolean departed;

    /** Runs {@code onDeparture} once when the client leaves (at once if it left already); replaces an earlier one. */
    public void onDeparture(Runnable onDeparture) {
        action.set(onDeparture);
        if (departed) {
            action.getAndSet(NONE).run();
        }
    }

    /** Nothing to do any more when the client leaves. */
    public void clear() {
        action.set(NONE);
    }

    /** Whether a handler waits to be told (an action is set and not cleared): only then is the client watched. */
    public boolean awaited() {
        return action.get() != NONE;
    }

    public boolean departed() {
        return departed;
    }

    /** The client left (called by the listener). */
    public void depart() {
        departed = true;
        action.getAndSet(NONE).run();
    }
}
