package io.pylon.cache.grid;

import io.pylon.core.pod.PodExecutors;

/**
 * Makes the member's own thread pools part of {@code threads.executorPools}. Only Hazelcast's real
 * ThreadPoolExecutors qualify (its async and client executors, its scheduler); the rest of its executors share one
 * cached pool and its operation threads are not a pool, so {@code datagrid.executors} reports those instead.
 */
public final class HazelcastPools {
    private HazelcastPools() {
    }

    public static void register(GridMember member, PodExecutors executors) {
        new HazelcastInternals(member.instance()).threadPools().forEach(executors::register);
    }
}
