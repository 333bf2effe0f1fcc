package io.pylon.core.diagnostics.postmortem;

import java.util.Optional;

/** Why a capture was written; {@link #id()} is its name in capture ids and answers. */
public enum Trigger {
    DEADLOCK("deadlock"),
    LIVENESS_DOWN("liveness-down"),
    HEAP_AFTER_GC("heap-after-gc"),
    SIGTERM("sigterm"),
    HEAVY_REFUSALS("heavy-refusals"),
    OUT_OF_MEMORY("out-of-memory");

    private final String id;

    Trigger(String id) {
        this.id = id;
    }

    public String id() {
        return id;
    }

    public static Optional<Trigger> of(String id) {
        for (Trigger trigger : values()) {
            if (trigger.id.equals(id)) {
                return Optional.of(trigger);
            }
        }
        return Optional.empty();
    }
}
