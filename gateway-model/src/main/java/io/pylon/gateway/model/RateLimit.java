package io.pylon.gateway.model;

import java.time.Duration;

/** A route's request limit: {@code requests} per {@code window}, counted per client IP or over all clients. */
public record RateLimit(int requests, Window window, Key key, CacheFallback onCacheUnavailable) {

    public enum Window {
        SECOND(Duration.ofSeconds(1)), MINUTE(Duration.ofMinutes(1));

        private final Duration length;

        Window(Duration length) {
            this.length = length;
        }

        public Duration length() {
            return length;
        }
    }

    public enum Key {
        CLIENT_IP, OVERALL
    }

    /** What a rate-limited route does while the Cache cannot count: let requests through, or refuse them with 503. */
    public enum CacheFallback {
        ALLOW, DENY
    }
}
