package io.pylon.manager.auth;

import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The database's answer for a token hash, reused for a short time so that a Bearer check costs a map look-up
 * rather than a query. Entries of one account are dropped the moment that account or one of its tokens changes on
 * this pod; other replicas see a change after at most the lifetime. Bounded: when full, it starts afresh.
 *
 * <p>Threading: called concurrently by request threads; the entries are a concurrent map of immutable values. A miss
 * is filled by its caller after the query, so two threads missing one hash at once both query and the later answer
 * stays; changes to accounts and tokens remove entries from any thread.
 */
final class TokenCheckCache {
    private static final int MAX_ENTRIES = 10_000;

    private record Entry(StoredToken token, long readAtNanos) {
    }

    private final long lifetimeNanos;
    private final Map<String, Entry> entries = new ConcurrentHashMap<>();

    TokenCheckCache(Duration lifetime) {
        this.lifetimeNanos = lifetime.toNanos();
    }

    @Nullable StoredToken get(String tokenHash) {
        if (lifetimeNanos == 0) {
            return null;
        }
        Entry entry = entries.get(tokenHash);
        if (entry == null) {
            return null;
        }
        if (System.nanoTime() - entry.readAtNanos() > lifetimeNanos) {
            entries.remove(tokenHash, entry);
            return null;
        }
        return entry.token();
    }

    void put(String tokenHash, StoredToken token) {
        if (lifetimeNanos == 0) {
            return;
        }
        if (entries.size() >= MAX_ENTRIES) {
            entries.clear();
        }
        entries.put(tokenHash, new Entry(token, System.nanoTime()));
    }

    void forgetUser(String username) {
        entries.values().removeIf(e -> e.token().username().equals(username));
    }

    void forgetToken(String tokenId) {
        entries.values().removeIf(e -> e.token().id().equals(tokenId));
    }
}
