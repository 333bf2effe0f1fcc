package io.pylon.worker.proxy;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Counts kept in flat arrays of slots: each key (a route and an upstream label, say) owns a group of consecutive
 * slots, given out once and kept for the life of the pod, so that a route resolves its slot numbers when a table is
 * built and a request adds to a slot without a map lookup or a key: one array element, next to the other routes'.
 * A slot is a plain atomic count; the meters that expose it read it at scrape time.
 *
 * <p>Threading: {@link #group} (table builds, first use of a route) holds this object's monitor and publishes grown
 * storage through a volatile field; {@link #add} and {@link #get} take no lock, and any thread may call them for a
 * slot that {@link #group} returned.
 */
final class RouteCounts {
    private static final int CHUNK_BITS = 10;
    private static final int CHUNK = 1 << CHUNK_BITS;

    private final int width;
    private final Map<Object, Integer> groups = new HashMap<>();
    private volatile AtomicLongArray[] chunks = new AtomicLongArray[0];
    private int next;

    /** @param width the slots of each group; at most {@value #CHUNK} */
    RouteCounts(int width) {
        if (width < 1 || width > CHUNK) {
            throw new IllegalArgumentException("width must be from 1 to " + CHUNK);
        }
        this.width = width;
    }

    /** The first slot of {@code key}'s group, given out on the key's first call; a group never spans two chunks. */
    synchronized int group(Object key) {
        Integer known = groups.get(key);
        if (known != null) {
            return known;
        }
        int start = next;
        if ((start & (CHUNK - 1)) + width > CHUNK) {
            start = (start >>> CHUNK_BITS) + 1 << CHUNK_BITS;
        }
        int chunk = start >>> CHUNK_BITS;
        AtomicLongArray[] current = chunks;
        if (chunk >= current.length) {
            AtomicLongArray[] grown = java.util.Arrays.copyOf(current, chunk + 1);
            grown[chunk] = new AtomicLongArray(CHUNK);
            chunks = grown;
        }
        next = start + width;
        groups.put(key, start);
        return start;
    }

    /** Adds one to {@code slot}; returns the count before, so that the caller knows a slot's first use (0). */
    long add(int slot) {
        return chunks[slot >>> CHUNK_BITS].getAndIncrement(slot & (CHUNK - 1));
    }

    long get(int slot) {
        return chunks[slot >>> CHUNK_BITS].get(slot & (CHUNK - 1));
    }
}
