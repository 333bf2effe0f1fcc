package io.pylon.cache.client;

import com.hazelcast.map.EntryProcessor;
import com.hazelcast.nio.ObjectDataInput;
import com.hazelcast.nio.ObjectDataOutput;
import com.hazelcast.nio.serialization.IdentifiedDataSerializable;
import org.jspecify.annotations.Nullable;

import java.io.IOException;
import java.util.Map;

/**
 * Runs on the member that owns an environment's bundle entry: stores the bundle unless the entry already holds the
 * same or a newer version, and answers the version the entry holds afterwards. Two Manager replicas writing at once
 * (one still on the version before) can so never move the copy backwards. The decision depends only on the entry, so
 * the backup runs the same processor and reaches the same state.
 */
public final class PutNewerBundle implements EntryProcessor<String, GridBundle, Long>, IdentifiedDataSerializable {
    private @Nullable GridBundle bundle;

    /** For deserialization. */
    public PutNewerBundle() {
    }

    PutNewerBundle(GridBundle bundle) {
        this.bundle = bundle;
    }

    @Override
    public Long process(Map.Entry<String, GridBundle> entry) {
        GridBundle stored = entry.getValue();
        if (bundle == null || stored != null && stored.version() >= bundle.version()) {
            return stored == null ? -1L : stored.version();
        }
        entry.setValue(bundle);
        return bundle.version();
    }

    @Override
    public int getFactoryId() {
        return GridSerialization.FACTORY_ID;
    }

    @Override
    public int getClassId() {
        return GridSerialization.PUT_NEWER_BUNDLE;
    }

    @Override
    public void writeData(ObjectDataOutput out) throws IOException {
        out.writeObject(bundle);
    }

    @Override
    public void readData(ObjectDataInput in) throws IOException {
        bundle = in.readObject();
    }
}
