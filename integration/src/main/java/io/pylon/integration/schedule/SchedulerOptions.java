package io.pylon.integration.schedule;

import java.time.Duration;

/**
 * How the scheduler runs on this pod.
 *
 * @param threads           runs this pod executes at once
 * @param pollingInterval   how often the pod looks for due runs
 * @param heartbeatInterval how often a pod marks its running runs as alive
 * @param missedHeartbeats  heartbeats missed before another pod takes a run over
 * @param podName           the name the scheduler's table records as the picker
 */
public record SchedulerOptions(int threads, Duration pollingInterval, Duration heartbeatInterval, int missedHeartbeats,
                               String podName) {
}
