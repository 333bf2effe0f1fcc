package io.pylon.core.broadcast;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.pylon.core.metrics.HttpServerMetrics;
import io.pylon.core.metrics.PodMetrics;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Broadcast meters: {@code pylon_broadcast_duration_seconds} (one per broadcast, a histogram),
 * {@code pylon_broadcast_pods_asked_total}, {@code pylon_broadcast_pods_failed_total{cause}} (the failure's status as
 * a fixed word: unreachable 502, timeout 504, unavailable 503, busy 429, failed 500, not_found 404, other) and
 * {@code pylon_broadcast_answer_bytes} (a summary of each pod's answer size). The diagnostics name is not a label: it
 * comes from the request path. Thread-safe: meters are created up front.
 */
public final class BroadcastMeters {
    private static final Map<Integer, String> CAUSES = Map.of(502, "unreachable", 504, "timeout", 503, "unavailable",
            429, "busy", 500, "failed", 404, "not_found");

    private final boolean enabled;
    private final Timer duration;
    private final Counter asked;
    private final DistributionSummary answerBytes;
    private final Map<String, Counter> failed;

    private BroadcastMeters(MeterRegistry registry, boolean enabled) {
        this.enabled = enabled;
        this.duration = Timer.builder("pylon.broadcast.duration").description("How long a whole broadcast took")
                .serviceLevelObjectives(HttpServerMetrics.LATENCY_BUCKETS).register(registry);
        this.asked = Counter.builder("pylon.broadcast.pods.asked")
                .description("Pods a broadcast asked, this pod included").register(registry);
        this.answerBytes = DistributionSummary.builder("pylon.broadcast.answer").baseUnit("bytes")
                .description("Size of each pod's answer to a broadcast").register(registry);
        Map<String, Counter> byCause = new java.util.HashMap<>();
        for (String cause : new String[]{"unreachable", "timeout", "unavailable", "busy", "failed", "not_found", "other"}) {
            byCause.put(cause, Counter.builder("pylon.broadcast.pods.failed").tag("cause", cause)
                    .description("Pods of a broadcast without an answer, by cause").register(registry));
        }
        this.failed = Map.copyOf(byCause);
    }

    public static BroadcastMeters of(PodMetrics metrics) {
        return new BroadcastMeters(metrics.registry(), metrics.enabled());
    }

    static BroadcastMeters disabled() {
        return new BroadcastMeters(new io.micrometer.core.instrument.composite.CompositeMeterRegistry(), false);
    }

    void asked(int pods) {
        if (enabled) {
            asked.increment(pods);
        }
    }

    void answered(int bytes) {
        if (enabled) {
            answerBytes.record(bytes);
        }
    }

    void failed(PodFailure failure) {
        if (enabled) {
            Counter counter = failed.get(CAUSES.getOrDefault(failure.status(), "other"));
            if (counter != null) {   // every cause has one
                counter.increment();
            }
        }
    }

    void finished(long nanos) {
        if (enabled) {
            duration.record(nanos, TimeUnit.NANOSECONDS);
        }
    }
}
