package io.pylon.core.http;

import org.jspecify.annotations.Nullable;

/**
 * Told of each request the pod refuses before any route takes it (see {@link Refusals}): counted by every pod, written
 * to the Worker's access log.
 *
 * <p>Threading: called on connection threads, concurrently; must not block.
 */
public interface RefusalObserver {
    /**
     * The identifier the refusal's answer carries ({@code X-Request-Id} and {@code request_id} in its body), asked
     * before the answer is written; null: none from this observer.
     */
    default @Nullable String requestId() {
        return null;
    }

    /** The refusal was answered. */
    void refused(RefusedRequest request);
}
