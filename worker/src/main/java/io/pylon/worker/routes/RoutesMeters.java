package io.pylon.worker.routes;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.pylon.core.metrics.PodMetrics;

/**
 * The routes file as meters: {@code pylon_worker_routes_loads_total} (tables installed, the first included),
 * {@code pylon_worker_routes_reload_failures_total} (contents refused) and {@code pylon_worker_routes} (routes in
 * force). Read from {@link RoutesFile} at scrape time.
 */
public final class RoutesMeters {
    private RoutesMeters() {
    }

    public static void bind(RoutesFile routes, PodMetrics metrics) {
        if (!metrics.enabled()) {
            return;
        }
        FunctionCounter.builder("pylon.worker.routes.loads", routes, RoutesFile::loads)
                .description("Route tables installed from the routes file, the first load included")
                .register(metrics.registry());
        FunctionCounter.builder("pylon.worker.routes.reload.failures", routes, RoutesFile::refusals)
                .description("Routes file contents refused (invalid, unreadable or missing); the routes in force stay")
                .register(metrics.registry());
        Gauge.builder("pylon.worker.routes", routes, r -> r.current().size())
                .description("Routes in force").register(metrics.registry());
    }
}
