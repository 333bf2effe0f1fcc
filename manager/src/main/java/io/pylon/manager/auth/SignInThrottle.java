package io.pylon.manager.auth;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.helidon.http.Status;
import io.pylon.manager.api.ApiException;
import org.jspecify.annotations.Nullable;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * Failed sign-ins per source address and per account and source address, remembered in this pod's memory for a
 * window counted from the first failure. Past a threshold the source (or the source for that account) is answered
 * 429 with {@code Retry-After} before any password check, so a guessing client neither costs hashing time nor can
 * lock the account for everyone else. The account-wide lock (in the database, shared by replicas) stays the
 * backstop against guesses spread over many addresses or replicas.
 *
 * <p>Memory is bounded: at most {@value #MAX_ENTRIES} counters of each kind, the least recently used evicted first.
 * Names that are no valid username are counted under one key, so that long junk names take no memory.
 *
 * <p>Threading: called concurrently by request virtual threads. A counter is only changed inside the cache's atomic
 * per-key {@code compute}, so concurrent failures are counted exactly; reads see the latest completed change.
 */
public final class SignInThrottle {
    static final int MAX_ENTRIES = 100_000;

    private record Window(Instant start, int failures) {
    }

    private record AccountSource(String account, String source) {
    }

    private final Cache<String, Window> bySource;
    private final Cache<AccountSource, Window> byAccountSource;
    private final int sourceMax;
    private final int accountSourceMax;
    private final Duration window;
    private final Clock clock;

    public SignInThrottle(int sourceMax, int accountSourceMax, Duration window, Clock clock) {
        this.sourceMax = sourceMax;
        this.accountSourceMax = accountSourceMax;
        this.window = window;
        this.clock = clock;
        this.bySource = Caffeine.newBuilder().maximumSize(MAX_ENTRIES).expireAfterWrite(window).build();
        this.byAccountSource = Caffeine.newBuilder().maximumSize(MAX_ENTRIES).expireAfterWrite(window).build();
    }

    /** Throws 429 with {@code Retry-After} when the source, or the source for this account, failed too often. */
    public void check(String account, String source) {
        Instant now = clock.instant();
        Duration wait = blockedFor(bySource.getIfPresent(source), sourceMax, now);
        if (wait != null) {
            throw refused("Too many failed sign-ins from this address", wait);
        }
        wait = blockedFor(byAccountSource.getIfPresent(new AccountSource(account, source)), accountSourceMax, now);
        if (wait != null) {
            throw refused("Too many failed sign-ins to this account from this address", wait);
        }
    }

    public void recordFailure(String account, String source) {
        Instant now = clock.instant();
        bySource.asMap().compute(source, (key, current) -> counted(current, now));
        byAccountSource.asMap().compute(new AccountSource(account, source), (key, current) -> counted(current, now));
    }

    /** A successful sign-in clears its account-and-source count (not the source's: one known account must not reset it). */
    public void recordSuccess(String account, String source) {
        byAccountSource.invalidate(new AccountSource(account, source));
    }

    private Window counted(Window current, Instant now) {
        if (current == null || !now.isBefore(current.start().plus(window))) {
            return new Window(now, 1);
        }
        return new Window(current.start(), current.failures() + 1);
    }

    private @Nullable Duration blockedFor(@Nullable Window counted, int max, Instant now) {
        if (counted == null || counted.failures() < max) {
            return null;
        }
        Duration left = Duration.between(now, counted.start().plus(window));
        return left.isNegative() || left.isZero() ? null : left;
    }

    private static ApiException refused(String reason, Duration wait) {
        long seconds = Math.max(1, (wait.toMillis() + 999) / 1000);
        return ApiException.retryLater(Status.TOO_MANY_REQUESTS_429, "temporarily_unavailable",
                reason + "; retry in " + seconds + " s.", wait);
    }
}
