package io.pylon.core.metrics;

import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.pylon.core.health.CheckResult;
import io.pylon.core.health.HealthCheck;
import io.pylon.core.health.HealthRegistry;
import io.pylon.core.health.HealthReport;
import io.pylon.core.health.HealthStatus;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Health as meters, refreshed before each scrape from the registry (whose results are cached for the health TTL, so
 * a scrape never runs a check more often than probes do): {@code pylon_health_check_status{check}} (1 UP, 0 DOWN),
 * {@code pylon_health_check_duration_seconds{check}} and {@code pylon_health_probe_status{probe}} for liveness and
 * readiness. Label values are the names of the registered checks.
 */
public final class HealthMetrics {
    private final HealthRegistry health;
    private final MultiGauge status;
    private final MultiGauge duration;
    private final MultiGauge probes;

    private HealthMetrics(HealthRegistry health, PodMetrics metrics) {
        this.health = health;
        this.status = MultiGauge.builder("pylon.health.check.status")
                .description("1 when the health check is UP, 0 when DOWN").register(metrics.registry());
        this.duration = MultiGauge.builder("pylon.health.check.duration").baseUnit("seconds")
                .description("How long the last run of the health check took").register(metrics.registry());
        this.probes = MultiGauge.builder("pylon.health.probe.status")
                .description("1 when the probe (liveness, readiness) answers UP, 0 when DOWN").register(metrics.registry());
    }

    public static void bind(HealthRegistry health, PodMetrics metrics) {
        if (metrics.enabled()) {
            metrics.beforeScrape(new HealthMetrics(health, metrics)::refresh);
        }
    }

    private void refresh() {
        HealthReport all = health.all();
        List<MultiGauge.Row<?>> statusRows = new ArrayList<>();
        List<MultiGauge.Row<?>> durationRows = new ArrayList<>();
        for (Map.Entry<String, CheckResult> check : all.checks().entrySet()) {
            Tags tags = Tags.of("check", check.getKey());
            statusRows.add(MultiGauge.Row.of(tags, up(check.getValue().status())));
            Object millis = check.getValue().details().get("durationMs");
            if (millis instanceof Number number) {
                durationRows.add(MultiGauge.Row.of(tags, number.doubleValue() / 1000.0));
            }
        }
        status.register(statusRows, true);
        duration.register(durationRows, true);
        probes.register(List.of(
                MultiGauge.Row.of(Tags.of("probe", "liveness"), up(health.probe(HealthCheck.Probe.LIVENESS).status())),
                MultiGauge.Row.of(Tags.of("probe", "readiness"), up(health.probe(HealthCheck.Probe.READINESS).status()))),
                true);
    }

    private static int up(HealthStatus status) {
        return status == HealthStatus.UP ? 1 : 0;
    }
}
