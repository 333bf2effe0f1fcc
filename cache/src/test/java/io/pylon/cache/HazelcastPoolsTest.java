package io.pylon.cache;

import io.pylon.cache.GridTestPods.CachePod;
import io.pylon.cache.GridTestPods.Slot;
import io.pylon.cache.grid.HazelcastPools;
import io.pylon.core.pod.PodExecutors;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Hazelcast's own pools become visible to {@code threads.executorPools}; the rest shows in {@code datagrid.executors}. */
class HazelcastPoolsTest {

    @Test
    void registersTheMembersRealThreadPools() throws Exception {
        Slot slot = GridTestPods.slot("127.6.0.31");
        CachePod pod = GridTestPods.start("cache-pools", slot, slot.member(), Map.of());
        try (PodExecutors executors = new PodExecutors("platform", 1, 10, 1)) {
            HazelcastPools.register(pod.module().member(), executors);
            assertThat(executors.pools()).containsKeys("platform-async", "platform-maintenance", "hazelcast-async",
                    "hazelcast-client", "hazelcast-scheduler");
            assertThat(executors.pools().get("hazelcast-async").getMaximumPoolSize()).isPositive();

            @SuppressWarnings("unchecked")
            Map<String, Object> hazelcastExecutors = (Map<String, Object>) pod.section().get("executors");
            assertThat(hazelcastExecutors).containsKeys("hazelcast-system", "hazelcast-operations");
            @SuppressWarnings("unchecked")
            Map<String, Object> operations = (Map<String, Object>) hazelcastExecutors.get("hazelcast-operations");
            assertThat((Integer) operations.get("partitionThreads")).isPositive();
        } finally {
            pod.pod().stop();
        }
    }
}
