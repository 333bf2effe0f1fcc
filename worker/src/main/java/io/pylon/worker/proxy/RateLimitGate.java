package io.pylon.worker.proxy;

import org.jspecify.annotations.Nullable;

import io.helidon.http.Status;
import io.pylon.worker.keys.KeySet;
import io.pylon.worker.ratelimit.PlanLimiter;
import io.pylon.worker.ratelimit.RateLimiter;
import io.pylon.gateway.model.RateLimit;
import io.pylon.gateway.model.Route;

import java.util.Locale;

/**
 * The rate-limit stage: asks the {@link PlanLimiter} about a key's plan and the {@link RateLimiter} about a route
 * that has a limit, and turns a refusal into the client's answer (429 over the limit, 503 when the limit cannot be checked and the route says deny). Stateless
 * apart from the counters; called concurrently by request threads.
 */
final class RateLimitGate {
    private final RateLimiter rateLimiter;
    private final PlanLimiter plans;
    private final ProxyStats stats;

    RateLimitGate(RateLimiter rateLimiter, PlanLimiter plans, ProxyStats stats) {
        this.rateLimiter = rateLimiter;
        this.plans = plans;
        this.stats = stats;
    }

    /** Null when the application is within its subscription's plan (or the counters cannot say), else a 429. */
    GatewayError checkPlan(Route route, String application, KeySet.Plan plan) {
        RateLimiter.Decision decision = plans.check(route.name(), application, plan.requests(), plan.window());
        if (decision.outcome() != RateLimiter.Outcome.LIMITED) {
            return null;
        }
        stats.rateLimited.increment();
        stats.meters.decided(route, "plan_limited");
        return new GatewayError(Status.TOO_MANY_REQUESTS_429, "plan_limit_exceeded", "The plan '" + plan.name()
                + "' of this application's subscription allows " + plan.requests() + " request(s) per "
                + (plan.window().toSeconds() == 1 ? "second" : "minute") + ".", decision.retryAfterSeconds());
    }

    /** Null when the request may pass, else the answer that refuses it. */
    @Nullable GatewayError check(Route route, String clientIp) {
        RateLimit limit = route.rateLimit();
        if (limit == null) {
            return null;
        }
        RateLimiter.Decision decision = rateLimiter.check(route, clientIp);
        return switch (decision.outcome()) {
            case ALLOW -> {
                stats.meters.decided(route, "allowed");
                yield null;
            }
            case LIMITED -> {
                stats.rateLimited.increment();
                stats.meters.decided(route, "limited");
                yield new GatewayError(Status.TOO_MANY_REQUESTS_429, "too_many_requests", "Rate limit of "
                        + limit.requests() + " request(s) per " + limit.window().name().toLowerCase(Locale.ROOT)
                        + " exceeded.", decision.retryAfterSeconds());
            }
            case CACHE_UNAVAILABLE -> {
                stats.rateLimitUnavailable.increment();
                stats.meters.decided(route, "cache_unavailable");
                yield new GatewayError(Status.SERVICE_UNAVAILABLE_503, "service_unavailable",
                        "The rate limit of this route cannot be checked right now; try again later.",
                        decision.retryAfterSeconds());
            }
        };
    }
}
