package io.pylon.cache.grid;

import com.hazelcast.config.Config;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;

/** The Cache pod's Hazelcast member; closing it leaves the cluster gracefully (its partitions move to the others first). */
public final class GridMember implements AutoCloseable {
    private final HazelcastInstance instance;

    private GridMember(HazelcastInstance instance) {
        this.instance = instance;
    }

    /** Starts the member and returns once it joined (or formed) its cluster. */
    public static GridMember start(Config config) {
        return new GridMember(Hazelcast.newHazelcastInstance(config));
    }

    public HazelcastInstance instance() {
        return instance;
    }

    public boolean isRunning() {
        return instance.getLifecycleService().isRunning();
    }

    @Override
    public void close() {
        if (isRunning()) {
            instance.shutdown();
        }
    }
}
