package io.pylon.core.diagnostics.compare;

import io.pylon.core.config.Settings;
import java.util.Set;

/** How a pod compares the fleet: the outlier threshold and the environment variables that never count as drift. */
public record CompareOptions(double threshold, Set<String> ignoredEnv) {
    public CompareOptions {
        ignoredEnv = Set.copyOf(ignoredEnv);
    }

    public static CompareOptions from(Settings settings) {
        return new CompareOptions(settings.get(CompareSettings.THRESHOLD), Set.copyOf(settings.get(CompareSettings.IGNORE_ENV)));
    }

    public static CompareOptions defaults() {
        return from(Settings.of(java.util.Map.of()));
    }
}
