package io.pylon.core.http;

import java.util.ArrayDeque;

/**
 * The requests of one HTTP/1.0 connection whose answers are still to be written, in order: what the response writer
 * needs to know where each answer ends (a {@code HEAD} answer has no body whatever its {@code Content-Length}).
 *
 * <p>Threading: the connection's reader adds and its writer takes, both on the connection's thread (Helidon serves an
 * HTTP/1 connection's requests one after the other on it); the methods are synchronized all the same, so a handler
 * that writes from another thread still sees every request announced before its own.
 */
public final class Http10Exchanges {
    private final ArrayDeque<Boolean> heads = new ArrayDeque<>();

    /** A request head was read; {@code head}: its method is {@code HEAD}. */
    synchronized void requested(boolean head) {
        heads.addLast(head);
    }

    /** The final answer to the oldest request starts: whether that request was a {@code HEAD}. */
    synchronized boolean answering() {
        Boolean head = heads.pollFirst();
        return head != null && head;
    }
}
