package io.pylon.core.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.pylon.core.http.RefusalObserver;
import io.pylon.core.http.RefusedRequest;
import io.pylon.core.http.Refusals;

import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * {@code pylon_http_server_refusals_total{status}}: the requests the pod refused before any route took them (see
 * {@link Refusals}), which {@code http_server_requests_seconds} does not count: no route timed them. The status is the
 * exact code (431, not 4xx: which refusal it was is the point), bounded by the codes HTTP has.
 *
 * <p>Threading: a counter is registered once per status (the registry returns the same one to a thread that races)
 * and kept in an atomic array; connection threads increment concurrently.
 */
public final class RefusalMeters implements RefusalObserver {
    private static final int CODES = 600;

    private final MeterRegistry registry;
    private final AtomicReferenceArray<Counter> byStatus = new AtomicReferenceArray<>(CODES);

    private RefusalMeters(MeterRegistry registry) {
        this.registry = registry;
    }

    public static void bind(Refusals refusals, PodMetrics metrics) {
        if (metrics.enabled()) {
            refusals.observe(new RefusalMeters(metrics.registry()));
        }
    }

    @Override
    public void refused(RefusedRequest request) {
        int status = request.status();
        if (status < 100 || status >= CODES) {
            return;
        }
        Counter counter = byStatus.get(status);
        if (counter == null) {
            counter = Counter.builder("pylon.http.server.refusals")
                    .description("Requests refused before any route took them (malformed, oversized, conflicting "
                            + "framing), by status")
                    .tag("status", Integer.toString(status))
                    .register(registry);
            byStatus.set(status, counter);
        }
        counter.increment();
    }
}
