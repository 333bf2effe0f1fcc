package io.pylon.core.diagnostics.compare;

import io.pylon.core.config.Setting;
import io.pylon.core.config.SettingType;

import java.util.List;

/** Settings of the {@code compare} diagnostics. */
public final class CompareSettings {
    private CompareSettings() {
    }

    public static final Setting<Double> THRESHOLD = Setting.of("pylon.diagnostics.compare.threshold",
            "'compare' lists a pod as an outlier on a metric when its robust score (modified z-score: 0.6745 times "
                    + "its distance from the median over the median absolute deviation) exceeds this, in either "
                    + "direction; 3.5 is the cut-off Iglewicz and Hoaglin recommend.", 3.5, SettingType.doubleRange(1, 100));

    public static final Setting<List<String>> IGNORE_ENV = Setting.of("pylon.diagnostics.compare.ignore-env",
            "Environment variables that differ between pods by design, which 'compare' never reports as drift "
                    + "(comma-separated names, case-sensitive).",
            List.of("HOSTNAME", "HOST", "PWD", "OLDPWD", "SHLVL", "_", "PYLON_POD_NAME", "PYLON_POD_IP", "PYLON_POD_NODE"),
            SettingType.LIST);

    public static List<Setting<?>> all() {
        return List.of(THRESHOLD, IGNORE_ENV);
    }
}
