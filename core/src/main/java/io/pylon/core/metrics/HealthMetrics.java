package io.pylon.core.metrics;

import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.pylon.core.health.CheckResult;
import io.pylon.core.health.HealthCheck;
import io.pylon.core.health.HealthRegistry;
import io.pylon.core.health.HealthReport;
import io.pylon.core.health.HealthStatus;
import org.jspecify.annotations.Nullable;

import java.util.ArrayList;
import java.util.List;

/**
 * Health as meters, refreshed before each scrape from the registry (which answers with the checks' latest background
 * results, so a scrape never runs a check itself): {@code pylon_health_check_status{check}} (1 UP, 0 DOWN),
 * {@code pylon_health_check_duration_seconds{check}} and {@code pylon_health_probe_status{probe}} for liveness and
 * readiness. Label values are the names of the registered checks.
 *
 * <p>Threading: {@code refresh} runs on the scrape thread before each scrape and publishes the latest reports as one
 * immutable value in a volatile field, which the gauges read on scrape threads.
 */
public final class HealthMetrics {
    private final HealthRegistry health;
    private final MultiGauge status;
    private final MultiGauge duration;
    private final MultiGauge probes;
    // written by the scrape hook before the gauges of the same scrape read it
    private volatile @Nullable Latest latest;

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

    // Rows read the latest report, so that a row is registered once; only a new check adds one (re-registering every
    // row on every scrape made a scrape cost milliseconds).
    private void refresh() {
        HealthReport all = health.all();
        latest = new Latest(all, health.probe(HealthCheck.Probe.LIVENESS), health.probe(HealthCheck.Probe.READINESS));
        List<MultiGauge.Row<?>> statusRows = new ArrayList<>();
        List<MultiGauge.Row<?>> durationRows = new ArrayList<>();
        for (String check : all.checks().keySet()) {
            Tags tags = Tags.of("check", check);
            statusRows.add(MultiGauge.Row.of(tags, () -> checkStatus(check)));
            durationRows.add(MultiGauge.Row.of(tags, () -> checkSeconds(check)));
        }
        status.register(statusRows, false);
        duration.register(durationRows, false);
        probes.register(List.of(
                MultiGauge.Row.of(Tags.of("probe", "liveness"), () -> probe(Latest::liveness)),
                MultiGauge.Row.of(Tags.of("probe", "readiness"), () -> probe(Latest::readiness))), false);
    }

    private record Latest(HealthReport all, HealthReport liveness, HealthReport readiness) {
    }

    private Number probe(java.util.function.Function<Latest, HealthReport> which) {
        Latest current = latest;
        return current == null ? Double.NaN : up(which.apply(current).status());
    }

    private @Nullable CheckResult result(String check) {
        Latest current = latest;
        return current == null ? null : current.all().checks().get(check);
    }

    private Number checkStatus(String check) {
        CheckResult result = result(check);
        return result == null ? Double.NaN : up(result.status());
    }

    private Number checkSeconds(String check) {
        CheckResult result = result(check);
        return result != null && result.details().get("durationMs") instanceof Number millis
                ? millis.doubleValue() / 1000.0 : Double.NaN;
    }

    private static int up(HealthStatus status) {
        return status == HealthStatus.UP ? 1 : 0;
    }
}
