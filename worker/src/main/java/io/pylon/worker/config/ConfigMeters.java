package io.pylon.worker.config;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.pylon.core.metrics.PodMetrics;

/**
 * The Manager-fed configuration as meters: {@code pylon_worker_config_applies_total},
 * {@code pylon_worker_config_rejections_total} (bundles refused, the old one kept),
 * {@code pylon_worker_config_poll_failures_total} and {@code pylon_worker_config_version} (-1 before a first one).
 */
public final class ConfigMeters {
    private ConfigMeters() {
    }

    public static void bind(GatewayConfig config, ManagerFollower follower, PodMetrics metrics) {
        if (!metrics.enabled()) {
            return;
        }
        FunctionCounter.builder("pylon.worker.config.applies", config, GatewayConfig::applies)
                .description("Gateway bundles applied").register(metrics.registry());
        FunctionCounter.builder("pylon.worker.config.rejections", config, GatewayConfig::rejections)
                .description("Gateway bundles refused (invalid, truncated); the one in force stays")
                .register(metrics.registry());
        FunctionCounter.builder("pylon.worker.config.poll.failures", follower, ManagerFollower::pollFailures)
                .description("Polls of the Manager that failed (unreachable, timed out, broken off)")
                .register(metrics.registry());
        Gauge.builder("pylon.worker.config.version", config,
                        c -> c.applied() == null ? -1 : c.applied().version())
                .description("Version of the gateway bundle in force").register(metrics.registry());
    }
}
