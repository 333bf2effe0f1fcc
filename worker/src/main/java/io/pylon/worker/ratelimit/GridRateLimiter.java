package io.pylon.worker.ratelimit;

import org.jspecify.annotations.Nullable;

import io.pylon.cache.client.CounterStore;
import io.pylon.cache.client.CounterWindow;
import io.pylon.cache.client.GridClient;
import io.pylon.gateway.model.RateLimit;
import io.pylon.gateway.model.Route;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Rate limits counted in the Cache data grid, so every Worker pod sees the same fixed-window count per route and key.
 * When the grid cannot answer (not connected, or slower than the rate-limit timeout) the route's
 * {@code onCacheUnavailable} decides; the switch to and from that degraded state is logged once each way.
 *
 * <p>Threading: called concurrently by request threads; the degraded state flips with compare-and-set, so each switch
 * is logged once, and its start time is a volatile field.
 */
public final class GridRateLimiter implements RateLimiter, PlanLimiter {
    private static final System.Logger LOG = System.getLogger(GridRateLimiter.class.getName());

    private final @Nullable GridClient grid;
    private final long timeoutNanos;
    private final AtomicBoolean degraded = new AtomicBoolean();
    private volatile @Nullable Instant degradedSince;

    /** @param grid null when no data grid is configured: every limited route runs degraded */
    public GridRateLimiter(@Nullable GridClient grid, Duration timeout) {
        this.grid = grid;
        this.timeoutNanos = timeout.toNanos();
    }

    @Override
    public Decision check(Route route, String clientIp) {
        RateLimit limit = route.rateLimit();
        if (limit == null) {
            return Decision.ALLOW;
        }
        return decide(key(route, limit, clientIp), limit.requests(), limit.window().length(),
                limit.onCacheUnavailable() == RateLimit.CacheFallback.ALLOW ? Decision.ALLOW : Decision.CACHE_UNAVAILABLE);
    }

    @Override
    public Decision check(String proxy, String application, int requests, Duration window) {
        return decide(planKey(proxy, application, window), requests, window, Decision.ALLOW);
    }

    private Decision decide(String key, int requests, Duration length, Decision unavailable) {
        CounterWindow window = count(key, length);
        if (window == null) {
            return unavailable;
        }
        if (window.count() <= requests) {
            return Decision.ALLOW;
        }
        long millisLeft = Duration.between(Instant.now(), window.windowEnd()).toMillis();
        return Decision.limited((millisLeft + 999) / 1000);
    }

    /** {@code ratelimit:<proxy>:plan:<window ms>:app:<application>}: one count per application and proxy. */
    static String planKey(String proxy, String application, Duration window) {
        return "ratelimit:" + proxy + ":plan:" + window.toMillis() + ":app:" + application;
    }

    /** {@code ratelimit:<route>:ip:<address>} or {@code ratelimit:<route>:all}. */
    static String key(Route route, RateLimit limit, String clientIp) {
        return "ratelimit:" + route.name() + ":" + limit.window().name().toLowerCase(java.util.Locale.ROOT)
                + (limit.key() == RateLimit.Key.OVERALL ? ":all" : ":ip:" + clientIp);
    }

    private @Nullable CounterWindow count(String key, Duration window) {
        if (grid == null) {
            enterDegraded("no data grid is configured (pylon.cache.addresses)");
            return null;
        }
        try {
            CounterWindow result = grid.counters().incrementAsync(key, window).get(timeoutNanos, TimeUnit.NANOSECONDS);
            leaveDegraded();
            return result;
        } catch (TimeoutException e) {
            enterDegraded("the data grid did not answer within " + TimeUnit.NANOSECONDS.toMillis(timeoutNanos) + " ms");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            enterDegraded("the data grid is unavailable (" + (cause == null ? e : cause).getClass().getSimpleName() + ")");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            enterDegraded("interrupted while waiting for the data grid");
        } catch (RuntimeException e) {
            enterDegraded("the data grid is unavailable (" + e.getClass().getSimpleName() + ")");
        }
        return null;
    }

    private void enterDegraded(String why) {
        if (degraded.compareAndSet(false, true)) {
            degradedSince = Instant.now();
            LOG.log(Level.WARNING, "Rate limits degraded: " + why
                    + "; each limited route follows its onCacheUnavailable (allow or deny) until the grid answers again");
        }
    }

    private void leaveDegraded() {
        if (degraded.get() && degraded.compareAndSet(true, false)) {
            degradedSince = null;
            LOG.log(Level.INFO, "Rate limits restored: the data grid counts again");
        }
    }

    /** Whether the last attempt to count failed (rate limits follow each route's fallback). */
    public boolean isDegraded() {
        return degraded.get();
    }

    /** The grid client's state plus the rate limiter's own, for diagnostics and health. */
    public Map<String, Object> describe() {
        Map<String, Object> map = new LinkedHashMap<>();
        if (grid == null) {
            map.put("state", "NOT_CONFIGURED");
        } else {
            map.putAll(grid.describe());
        }
        map.put("rateLimitsDegraded", degraded.get());
        Instant since = degradedSince;
        map.put("degradedSince", since == null ? null : since.toString());
        return map;
    }
}
