package io.pylon.distribution.cli;

import org.jspecify.annotations.Nullable;

import java.util.Comparator;
import java.util.function.Function;

/** The orders {@code pylon top} offers, each on one key. Numeric orders put the largest first. */
public enum TopSort {
    NAME('n', "name", Comparator.comparing(p -> p.name() == null ? "" : p.name())),
    HEAP('h', "heap", descending(PodSnapshot::heapFraction)),
    CPU('c', "cpu", descending(PodSnapshot::cpu)),
    THREADS('t', "threads", descending(p -> p.threads() == null ? null : p.threads().doubleValue())),
    BLOCKED('b', "blocked", descending(p -> p.blocked() == null ? null : p.blocked().doubleValue())),
    CONNECTIONS('o', "connections", descending(p -> p.connections() == null ? null : p.connections().doubleValue())),
    PENDING('p', "pending", descending(p -> p.pending() == null ? null : p.pending().doubleValue()));

    final char key;
    final String label;
    final Comparator<PodSnapshot> order;

    TopSort(char key, String label, Comparator<PodSnapshot> order) {
        this.key = key;
        this.label = label;
        this.order = order.thenComparing(p -> p.name() == null ? "" : p.name());
    }

    static @Nullable TopSort forKey(int key) {
        for (TopSort sort : values()) {
            if (sort.key == Character.toLowerCase(key)) {
                return sort;
            }
        }
        return null;
    }

    private static Comparator<PodSnapshot> descending(Function<PodSnapshot, Double> value) {
        return Comparator.comparing(value, Comparator.nullsLast(Comparator.reverseOrder()));
    }
}
