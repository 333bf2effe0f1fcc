package io.pylon.worker.proxy;

import io.helidon.http.Status;
import io.pylon.worker.keys.KeySet;
import io.pylon.worker.ratelimit.RateLimiter;
import io.pylon.gateway.model.RateLimit;
import io.pylon.gateway.model.Route;
import io.pylon.gateway.model.Upstream;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** The rate-limit stage on its own: the limiter's decision turned into the client's answer, and counted. */
class RateLimitGateTest {
    private final ProxyStats stats = new ProxyStats();
    private final List<String> asked = new ArrayList<>();

    private RateLimitGate gate(RateLimiter.Decision decision) {
        return new RateLimitGate((route, clientIp) -> {
            asked.add(route.name() + " " + clientIp);
            return decision;
        }, (proxy, application, requests, window) -> {
            asked.add(proxy + " plan " + application + " " + requests + "/" + window.toSeconds() + "s");
            return decision;
        }, stats);
    }

    private static Route route(RateLimit limit) {
        return new Route("orders", "/api/orders", Set.of(), null, List.of(new Upstream("http", "127.0.0.1", 9000, "")),
                false, Duration.ofSeconds(2), Duration.ofSeconds(30), limit);
    }

    private static final RateLimit TEN_PER_MINUTE = new RateLimit(10, RateLimit.Window.MINUTE,
            RateLimit.Key.CLIENT_IP, RateLimit.CacheFallback.DENY);

    @Test
    void aRouteWithoutLimitPassesWithoutAskingTheLimiter() {
        assertThat(gate(RateLimiter.Decision.limited(5)).check(route(null), "10.0.0.1")).isNull();
        assertThat(asked).isEmpty();
    }

    @Test
    void underTheLimitPasses() {
        assertThat(gate(RateLimiter.Decision.ALLOW).check(route(TEN_PER_MINUTE), "10.0.0.1")).isNull();
        assertThat(asked).containsExactly("orders 10.0.0.1");
        assertThat(stats.describe()).containsEntry("rateLimited", 0L).containsEntry("rateLimitUnavailable", 0L);
    }

    @Test
    void overTheLimitIs429WithRetryAfterAndTheLimitNamed() {
        GatewayError refusal = gate(RateLimiter.Decision.limited(17)).check(route(TEN_PER_MINUTE), "10.0.0.1");

        assertThat(refusal.status()).isEqualTo(Status.TOO_MANY_REQUESTS_429);
        assertThat(refusal.error()).isEqualTo("too_many_requests");
        assertThat(refusal.message()).isEqualTo("Rate limit of 10 request(s) per minute exceeded.");
        assertThat(refusal.retryAfterSeconds()).isEqualTo(17);
        assertThat(stats.describe()).containsEntry("rateLimited", 1L);
    }

    @Test
    void aLimitThatCannotBeCheckedIs503WithRetryAfter() {
        GatewayError refusal = gate(RateLimiter.Decision.CACHE_UNAVAILABLE).check(route(TEN_PER_MINUTE), "10.0.0.1");

        assertThat(refusal.status()).isEqualTo(Status.SERVICE_UNAVAILABLE_503);
        assertThat(refusal.error()).isEqualTo("service_unavailable");
        assertThat(refusal.retryAfterSeconds()).isEqualTo(1);
        assertThat(stats.describe()).containsEntry("rateLimitUnavailable", 1L).containsEntry("rateLimited", 0L);
    }

    @Test
    void overThePlanIs429NamingThePlanAndAnUnreadableCountPasses() {
        KeySet.Plan gold = new KeySet.Plan("gold", 5, Duration.ofMinutes(1));
        GatewayError refusal = gate(RateLimiter.Decision.limited(42)).checkPlan(route(null), "app-1", gold);

        assertThat(asked).containsExactly("orders plan app-1 5/60s");
        assertThat(refusal.status()).isEqualTo(Status.TOO_MANY_REQUESTS_429);
        assertThat(refusal.error()).isEqualTo("plan_limit_exceeded");
        assertThat(refusal.message()).isEqualTo("The plan 'gold' of this application's subscription allows 5 "
                + "request(s) per minute.");
        assertThat(refusal.retryAfterSeconds()).isEqualTo(42);
        assertThat(gate(RateLimiter.Decision.ALLOW).checkPlan(route(null), "app-1", gold)).isNull();
        assertThat(gate(RateLimiter.Decision.CACHE_UNAVAILABLE).checkPlan(route(null), "app-1", gold)).isNull();
    }
}
