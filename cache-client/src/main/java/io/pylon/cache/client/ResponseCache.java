package io.pylon.cache.client;

import com.hazelcast.core.HazelcastInstance;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/** Small cached responses (bytes) shared by every Worker pod, each with its own time to live (one-second precision). */
public final class ResponseCache {
    private final HazelcastInstance client;
    private final GridCalls calls;

    ResponseCache(HazelcastInstance client, GridCalls calls) {
        this.client = client;
        this.calls = calls;
    }

    public Optional<byte[]> get(String key) {
        requireKey(key);
        return Optional.ofNullable(calls.await("response cache get", () ->
                client.<String, byte[]>getMap(GridMaps.RESPONSES).getAsync(key)));
    }

    public void put(String key, byte[] value, Duration ttl) {
        requireKey(key);
        if (value == null) {
            throw new IllegalArgumentException("cached response must not be null");
        }
        // Hazelcast keeps expiry times with one-second precision; a shorter TTL could round to "never expires"
        if (ttl == null || ttl.compareTo(Duration.ofSeconds(1)) < 0) {
            throw new IllegalArgumentException("cached response TTL must be at least 1 s");
        }
        calls.await("response cache put", () ->
                client.<String, byte[]>getMap(GridMaps.RESPONSES).setAsync(key, value, ttl.toMillis(), TimeUnit.MILLISECONDS));
    }

    public void remove(String key) {
        requireKey(key);
        calls.await("response cache remove", () -> client.<String, byte[]>getMap(GridMaps.RESPONSES).deleteAsync(key));
    }

    private static void requireKey(String key) {
        if (key == null || key.isEmpty()) {
            throw new IllegalArgumentException("response cache key must not be empty");
        }
    }
}
