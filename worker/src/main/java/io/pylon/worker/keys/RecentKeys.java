package io.pylon.worker.keys;

import org.jspecify.annotations.Nullable;

import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The keys of one key set that were presented lately and found, so that a key in use is not hashed again on every
 * request: a direct-mapped table of {@link #SLOTS} slots, each holding the last key found whose {@link String#hashCode}
 * picked it (a newer key takes the slot of an older one). Only keys the set holds are kept, so unknown keys (a brute
 * force) cannot push known ones out, and the table lives and dies with its key set: a new set (a revocation) starts
 * empty. A presented key is compared with the slot's key over its whole length whatever the first difference, so the
 * time a lookup takes says nothing about how much of a key was right.
 *
 * <p>Threading: any thread may look up and remember; a slot is replaced whole (an immutable entry in an atomic array),
 * so a racing reader sees either entry, each right for its own key.
 *
 * @param <V> what a key maps to
 */
final class RecentKeys<V> {
    /** The most keys kept: the table's slots. */
    static final int SLOTS = 1024;

    private record Slot<V>(String key, V value) {
    }

    private final AtomicReferenceArray<@Nullable Slot<V>> slots = new AtomicReferenceArray<>(SLOTS);

    /** The value remembered for exactly {@code presented}, or null. */
    @Nullable V get(String presented) {
        Slot<V> slot = slots.getPlain(index(presented));
        return slot != null && sameText(slot.key(), presented) ? slot.value() : null;
    }

    void remember(String presented, V value) {
        slots.setRelease(index(presented), new Slot<>(presented, value));
    }

    private static int index(String key) {
        int hash = key.hashCode();
        return (hash ^ (hash >>> 16)) & (SLOTS - 1);
    }

    // every character is compared whatever the first difference (keys of one length take one time)
    private static boolean sameText(String a, String b) {
        if (a.length() != b.length()) {
            return false;
        }
        int difference = 0;
        for (int i = 0; i < a.length(); i++) {
            difference |= a.charAt(i) ^ b.charAt(i);
        }
        return difference == 0;
    }
}
