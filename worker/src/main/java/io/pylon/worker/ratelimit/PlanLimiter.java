package io.pylon.worker.ratelimit;

import java.time.Duration;

/**
 * Decides whether one more request of an application may pass under its subscription's plan, counting across every
 * Worker pod on the same counters as the routes' rate limits.
 */
@FunctionalInterface
public interface PlanLimiter {

    /**
     * @return {@link RateLimiter.Outcome#ALLOW} or {@link RateLimiter.Outcome#LIMITED}; while the counters cannot be
     * read the request is allowed (a plan is a quota, not a lock: the route's own {@code rateLimit} is the place for
     * a limit that must hold when the Cache is away)
     */
    RateLimiter.Decision check(String proxy, String application, int requests, Duration window);
}
