package io.pylon.core.metrics;

import io.pylon.core.config.Setting;
import io.pylon.core.config.SettingType;

import java.util.List;

/** Settings of the metrics endpoint and the meters. */
public final class MetricsSettings {
    public static final Setting<Boolean> ENABLED = Setting.of("pylon.metrics.enabled",
            "Whether the pod records meters and serves them at /<segment>/management/metrics (Prometheus text or "
                    + "OpenMetrics). false: nothing is recorded and the path answers 404.", true, SettingType.BOOLEAN);

    private MetricsSettings() {
    }

    public static List<Setting<?>> all() {
        return List.of(ENABLED);
    }
}
