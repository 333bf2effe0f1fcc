package io.pylon.integration.schedule;

import java.time.Duration;

/**
 * How the scheduler runs on this pod.
 *
 * @param threads           runs this pod executes at once
 * @param pollingInterval   how often the pod looks for due runs
 * @param scheduleLead      how long before a scheduled instant its run is picked (it then waits for the instant)
 * @param heartbeatInterval how often a pod marks its running runs as alive
 * @param missedHeartbeats  heartbeats missed before another pod takes a run over
 * @param podName           the name the scheduler's table records as the picker
 */
public record SchedulerOptions(int threads, Duration pollingInterval, Duration scheduleLead, Duration heartbeatInterval, int missedHeartbeats,
                               String podName) {
    /** The most a scheduled run is picked ahead of its instant. */
    public static final Duration MAX_LEAD = Duration.ofSeconds(10);

    public SchedulerOptions {
        if (scheduleLead.isNegative() || scheduleLead.compareTo(MAX_LEAD) > 0) {
            throw new IllegalArgumentException("pylon.integration.schedule-lead: from 0 to " + MAX_LEAD.toSeconds() + "s");
        }
    }
}
