package io.pylon.cache.client;

import com.hazelcast.map.EntryProcessor;
import com.hazelcast.map.ExtendedMapEntry;
import com.hazelcast.nio.ObjectDataInput;
import com.hazelcast.nio.ObjectDataOutput;
import com.hazelcast.nio.serialization.IdentifiedDataSerializable;
import org.jspecify.annotations.Nullable;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** The backup side of {@link IncrementWindow}: stores the value the primary computed, with the same TTL. */
public final class PutWindowCounter implements EntryProcessor<String, WindowCounter, WindowCounter>, IdentifiedDataSerializable {
    private @Nullable WindowCounter value;
    private long ttlMillis;

    /** For deserialization. */
    public PutWindowCounter() {
    }

    PutWindowCounter(WindowCounter value, long ttlMillis) {
        this.value = value;
        this.ttlMillis = ttlMillis;
    }

    @Override
    public @Nullable WindowCounter process(Map.Entry<String, WindowCounter> entry) {
        @SuppressWarnings("unchecked")
        ExtendedMapEntry<String, WindowCounter> extended = (ExtendedMapEntry<String, WindowCounter>) entry;
        extended.setValue(value, ttlMillis, TimeUnit.MILLISECONDS);
        return value;
    }

    @Override
    public @Nullable EntryProcessor<String, WindowCounter, WindowCounter> getBackupProcessor() {
        return null;
    }

    @Override
    public int getFactoryId() {
        return GridSerialization.FACTORY_ID;
    }

    @Override
    public int getClassId() {
        return GridSerialization.PUT_WINDOW_COUNTER;
    }

    @Override
    public void writeData(ObjectDataOutput out) throws IOException {
        WindowCounter written = value;
        if (written == null) {
            throw new IllegalStateException("nothing to write: a put is written only by the member that built it");
        }
        out.writeLong(written.windowStart());
        out.writeLong(written.count());
        out.writeLong(ttlMillis);
    }

    @Override
    public void readData(ObjectDataInput in) throws IOException {
        value = new WindowCounter(in.readLong(), in.readLong());
        ttlMillis = in.readLong();
    }
}
