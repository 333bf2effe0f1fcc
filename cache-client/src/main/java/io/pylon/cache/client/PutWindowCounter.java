package io.pylon.cache.client;

import com.hazelcast.map.EntryProcessor;
import com.hazelcast.map.ExtendedMapEntry;
import com.hazelcast.nio.ObjectDataInput;
import com.hazelcast.nio.ObjectDataOutput;
import com.hazelcast.nio.serialization.IdentifiedDataSerializable;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** The backup side of {@link IncrementWindow}: stores the value the primary computed, with the same TTL. */
public final class PutWindowCounter implements EntryProcessor<String, WindowCounter, WindowCounter>, IdentifiedDataSerializable {
    private WindowCounter value;
    private long ttlMillis;

    /** For deserialization. */
    public PutWindowCounter() {
    }

    PutWindowCounter(WindowCounter value, long ttlMillis) {
        this.value = value;
        this.ttlMillis = ttlMillis;
    }

    @Override
    public WindowCounter process(Map.Entry<String, WindowCounter> entry) {
        @SuppressWarnings("unchecked")
        ExtendedMapEntry<String, WindowCounter> extended = (ExtendedMapEntry<String, WindowCounter>) entry;
        extended.setValue(value, ttlMillis, TimeUnit.MILLISECONDS);
        return value;
    }

    @Override
    public EntryProcessor<String, WindowCounter, WindowCounter> getBackupProcessor() {
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
        out.writeLong(value.windowStart());
        out.writeLong(value.count());
        out.writeLong(ttlMillis);
    }

    @Override
    public void readData(ObjectDataInput in) throws IOException {
        value = new WindowCounter(in.readLong(), in.readLong());
        ttlMillis = in.readLong();
    }
}
