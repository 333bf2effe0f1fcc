package io.pylon.cache.grid;

import com.hazelcast.partition.PartitionService;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Whether the cluster is safe (no partition migrating, every backup in sync), checked in the background. Hazelcast
 * answers by asking every member, which takes tens of milliseconds on a busy machine; {@code datagrid} reports the
 * latest answer and when it was taken instead of waiting for a fresh one on every call.
 *
 * <p>Threading: {@link #run} runs on the maintenance executor, one run at a time (fixed delay); it publishes each
 * answer as a new immutable map in a volatile field, which {@link #latest} hands to any thread.
 */
public final class ClusterSafety implements Runnable {
    private final GridMember member;
    private volatile Map<String, Object> latest = Map.of();

    public ClusterSafety(GridMember member) {
        this.member = member;
    }

    @Override
    public void run() {
        if (!member.isRunning()) {
            return;
        }
        Map<String, Object> result = new LinkedHashMap<>();
        try {
            PartitionService partitions = member.instance().getPartitionService();
            result.put("clusterSafe", partitions.isClusterSafe());
            result.put("localMemberSafe", partitions.isLocalMemberSafe());
        } catch (RuntimeException e) {
            // a member leaving mid-check: unknown rather than safe
            result.put("clusterSafe", null);
            result.put("localMemberSafe", null);
        }
        result.put("safetyCheckedAt", Instant.now().toString());
        latest = result;
    }

    /** {@code clusterSafe}, {@code localMemberSafe}, {@code safetyCheckedAt}; empty before the first check. */
    public Map<String, Object> latest() {
        return latest;
    }
}
