package io.pylon.worker.routes;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Finds, for a request path, the groups of routes whose prefix the path starts with at a segment boundary, longest
 * prefix first, in time that grows with the path's length and not with the number of routes. The prefixes are kept
 * in an open-addressing table keyed by {@link String#hashCode()}, and a path's candidate prefixes (the path cut before
 * each {@code '/'} and the whole path) are hashed as the path is read once, so a lookup allocates no substring.
 * The prefix {@code "/"} (and {@code ""}) matches every path and is the last group, {@link #root()}.
 *
 * <p>Threading: immutable once built; any thread may look up.
 *
 * @param <G> what is kept per prefix
 */
final class PrefixIndex<G> {
    private final String[] keys;
    private final int[] hashes;
    private final Object[] groups;
    private final int mask;
    private final int longest;
    private final int maxDepth;
    private final G root;

    /**
     * @param byPrefix the groups by prefix, in any order; {@code "/"} and {@code ""} go to {@code root}
     * @param root     the group of the prefixes that match every path (null: none)
     */
    PrefixIndex(Map<String, G> byPrefix, G root) {
        int capacity = Integer.highestOneBit(Math.max(4, byPrefix.size() * 2) - 1) << 1;
        this.keys = new String[capacity];
        this.hashes = new int[capacity];
        this.groups = new Object[capacity];
        this.mask = capacity - 1;
        int longestPrefix = 0;
        int deepest = 0;
        for (Map.Entry<String, G> prefix : byPrefix.entrySet()) {
            String key = prefix.getKey();
            int hash = key.hashCode();
            int slot = spread(hash) & mask;
            while (keys[slot] != null) {
                slot = (slot + 1) & mask;
            }
            keys[slot] = key;
            hashes[slot] = hash;
            groups[slot] = prefix.getValue();
            longestPrefix = Math.max(longestPrefix, key.length());
            deepest = Math.max(deepest, boundaries(key) + 1);
        }
        this.longest = longestPrefix;
        this.maxDepth = deepest;
        this.root = root;
    }

    /** Groups routes by prefix, keeping their order within each group; "/" and "" form the root group. */
    static <T, G> PrefixIndex<G> of(List<T> ordered, Function<T, String> prefixOf, Function<List<T>, G> group) {
        Map<String, List<T>> byPrefix = new LinkedHashMap<>();
        List<T> everyPath = new ArrayList<>();
        for (T item : ordered) {
            String prefix = prefixOf.apply(item);
            if (prefix.isEmpty() || prefix.equals("/")) {
                everyPath.add(item);
            } else {
                byPrefix.computeIfAbsent(prefix, p -> new ArrayList<>()).add(item);
            }
        }
        Map<String, G> groups = new LinkedHashMap<>();
        byPrefix.forEach((prefix, items) -> groups.put(prefix, group.apply(items)));
        return new PrefixIndex<>(groups, everyPath.isEmpty() ? null : group.apply(everyPath));
    }

    /** The group of the prefixes that match every path; null when there is none. */
    G root() {
        return root;
    }

    /**
     * The groups whose prefix {@code path} starts with at a segment boundary (the character after the prefix is
     * {@code '/'} or there is none), longest first, without the root; {@code found} must hold {@link #maxDepth()}.
     *
     * @return how many groups were written to {@code found}
     */
    int lookup(String path, Object[] found) {
        int count = 0;
        int hash = 0;
        int end = Math.min(path.length(), longest);
        for (int i = 0; i < end; i++) {
            hash = 31 * hash + path.charAt(i);
            int length = i + 1;
            if (length == path.length() || path.charAt(length) == '/') {
                Object group = find(path, length, hash);
                if (group != null) {
                    found[count++] = group;
                }
            }
        }
        // longest first
        for (int i = 0, j = count - 1; i < j; i++, j--) {
            Object swap = found[i];
            found[i] = found[j];
            found[j] = swap;
        }
        return count;
    }

    /** The most groups one path can find: the size {@link #lookup} needs. */
    int maxDepth() {
        return maxDepth;
    }

    private Object find(String path, int length, int hash) {
        int slot = spread(hash) & mask;
        String key;
        while ((key = keys[slot]) != null) {
            if (hashes[slot] == hash && key.length() == length && path.regionMatches(0, key, 0, length)) {
                return groups[slot];
            }
            slot = (slot + 1) & mask;
        }
        return null;
    }

    // a path finds a prefix only where the prefix ends; it ends at most once per '/' after its first character
    private static int boundaries(String prefix) {
        int count = 0;
        for (int i = 1; i < prefix.length(); i++) {
            if (prefix.charAt(i) == '/') {
                count++;
            }
        }
        return count;
    }

    private static int spread(int hash) {
        return hash ^ (hash >>> 16);
    }
}
