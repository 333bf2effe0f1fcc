package io.pylon.worker.usage;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.pylon.core.metrics.PodMetrics;

/**
 * The usage counts' own health as meters, with no label per application: {@code pylon_worker_usage_recorded_total}
 * (requests counted), {@code pylon_worker_usage_dropped_total} (requests not counted for want of room, or refused by
 * the Manager) and {@code pylon_worker_usage_cells} (cells held, counting or waiting for the Manager).
 */
public final class UsageMeters {
    private UsageMeters() {
    }

    public static void bind(UsageRecorder recorder, PodMetrics metrics) {
        if (!metrics.enabled()) {
            return;
        }
        FunctionCounter.builder("pylon.worker.usage.recorded", recorder, UsageRecorder::recorded)
                .description("Requests with an application's key counted for usage").register(metrics.registry());
        FunctionCounter.builder("pylon.worker.usage.dropped", recorder, UsageRecorder::dropped)
                .description("Requests not counted for usage: no room left (pylon.worker.usage.max-entries) or "
                        + "refused by the Manager").register(metrics.registry());
        Gauge.builder("pylon.worker.usage.cells", recorder, UsageRecorder::held)
                .description("Usage cells (application, proxy, minute) held: counting, or waiting for the Manager")
                .register(metrics.registry());
    }
}
