package io.pylon.core.broadcast;

import io.pylon.core.config.Settings;

import java.time.Duration;
import java.util.Set;

/** The broadcast settings of one pod, read once. */
public record BroadcastLimits(int maxInFlight, Duration podTimeout, Duration slowPodTimeout, Duration deadline,
                              Duration connectTimeout, Duration heapDumpTimeout, long maxAnswerBytes) {

    /** The names whose answers take long to build (a thread dump, a sampling interval, a heap walk). */
    private static final Set<String> SLOW = Set.of("threaddump", "all", "hotthreads", "histogram", "jfr");

    public static BroadcastLimits from(Settings settings) {
        return new BroadcastLimits(settings.get(BroadcastSettings.MAX_IN_FLIGHT), settings.get(BroadcastSettings.POD_TIMEOUT),
                settings.get(BroadcastSettings.SLOW_POD_TIMEOUT), settings.get(BroadcastSettings.DEADLINE),
                settings.get(BroadcastSettings.CONNECT_TIMEOUT), settings.get(BroadcastSettings.HEAPDUMP_TIMEOUT),
                settings.get(BroadcastSettings.MAX_ANSWER_MB) * 1024L * 1024L);
    }

    /** The per-pod timeout for a diagnostics name. */
    public Duration podTimeout(String name) {
        if ("heapdump".equals(name)) {
            return heapDumpTimeout;
        }
        return SLOW.contains(name) ? slowPodTimeout : podTimeout;
    }
}
