package io.pylon.cache.client;

import com.hazelcast.core.HazelcastInstance;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;

/**
 * Cluster-wide fixed-window counters for rate limiting across Worker pods. One atomic entry-processor call per
 * increment, on the member that owns the key; the entry expires after its window.
 */
public final class CounterStore {
    private final HazelcastInstance client;
    private final GridCalls calls;

    CounterStore(HazelcastInstance client, GridCalls calls) {
        this.client = client;
        this.calls = calls;
    }

    /** Adds one hit to {@code key}'s current window of length {@code window} and returns the hits in that window. */
    public long increment(String key, Duration window) {
        return incrementWindow(key, window).count();
    }

    /** Like {@link #increment} but also tells when the window ends. */
    public CounterWindow incrementWindow(String key, Duration window) {
        long windowMillis = validate(key, window);
        WindowCounter counter = calls.await("counter increment", () ->
                client.<String, WindowCounter>getMap(GridMaps.COUNTERS).submitToKey(key, new IncrementWindow(windowMillis)));
        return toWindow(counter, windowMillis);
    }

    /** Non-blocking {@link #incrementWindow}; fails with {@link GridUnavailableException} like the blocking form. */
    public CompletableFuture<CounterWindow> incrementAsync(String key, Duration window) {
        long windowMillis;
        try {
            windowMillis = validate(key, window);
        } catch (IllegalArgumentException e) {
            return CompletableFuture.failedFuture(e);
        }
        return calls.<WindowCounter>async("counter increment", () ->
                        client.<String, WindowCounter>getMap(GridMaps.COUNTERS).submitToKey(key, new IncrementWindow(windowMillis)))
                .thenApply(counter -> toWindow(counter, windowMillis));
    }

    private static CounterWindow toWindow(WindowCounter counter, long windowMillis) {
        return new CounterWindow(counter.count(), Instant.ofEpochMilli(counter.windowStart()),
                Instant.ofEpochMilli(counter.windowStart() + windowMillis));
    }

    private static long validate(String key, Duration window) {
        if (key == null || key.isEmpty()) {
            throw new IllegalArgumentException("counter key must not be empty");
        }
        if (window == null || window.toMillis() < 1) {
            throw new IllegalArgumentException("counter window must be at least 1 ms");
        }
        return window.toMillis();
    }
}
