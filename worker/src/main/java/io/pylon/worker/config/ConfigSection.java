package io.pylon.worker.config;

import io.pylon.core.diagnostics.DiagnosticSection;

import java.util.Map;
import java.util.function.Supplier;

/**
 * {@code config}: where this pod's gateway configuration comes from and what is in force (version, hash, source,
 * routes), the last poll and the last refusal. Each call builds a fresh map from the follower's volatiles.
 */
public final class ConfigSection implements DiagnosticSection {
    private final Supplier<Map<String, Object>> state;

    public ConfigSection(Supplier<Map<String, Object>> state) {
        this.state = state;
    }

    @Override
    public String name() {
        return "config";
    }

    @Override
    public Object collect() {
        return state.get();
    }
}
