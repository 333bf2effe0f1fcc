package io.pylon.worker.ratelimit;

import io.pylon.gateway.model.Route;

/** Decides whether one more request on a rate-limited route may pass, counting across every Worker pod. */
public interface RateLimiter {

    /** Only called for routes with a {@link Route#rateLimit()}. */
    Decision check(Route route, String clientIp);

    /** What the proxy does with the request. */
    record Decision(Outcome outcome, long retryAfterSeconds) {
        public static final Decision ALLOW = new Decision(Outcome.ALLOW, 0);
        public static final Decision CACHE_UNAVAILABLE = new Decision(Outcome.CACHE_UNAVAILABLE, 1);

        public static Decision limited(long retryAfterSeconds) {
            return new Decision(Outcome.LIMITED, Math.max(1, retryAfterSeconds));
        }
    }

    enum Outcome {
        /** Under the limit, or the Cache is down and the route says allow. */
        ALLOW,
        /** Over the limit: 429 with Retry-After. */
        LIMITED,
        /** The Cache cannot count and the route says deny: 503. */
        CACHE_UNAVAILABLE
    }
}
