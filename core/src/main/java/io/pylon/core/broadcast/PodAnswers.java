package io.pylon.core.broadcast;

import io.pylon.core.discovery.DiscoveredPod;
import java.io.IOException;

/**
 * Where a {@link Broadcast} hands each pod's outcome, one at a time in podName order, from the request's thread: the
 * {@link AggregateWriter} passes answers on, a {@link FleetComparison} keeps a few numbers of each.
 */
interface PodAnswers {
    void answered(byte[] answer) throws IOException;

    void failed(DiscoveredPod pod, PodFailure failure) throws IOException;
}
