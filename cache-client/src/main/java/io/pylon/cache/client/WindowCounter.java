package io.pylon.cache.client;

import com.hazelcast.nio.ObjectDataInput;
import com.hazelcast.nio.ObjectDataOutput;
import com.hazelcast.nio.serialization.IdentifiedDataSerializable;

import java.io.IOException;
import java.time.Instant;

/** A fixed-window counter as stored in {@link GridMaps#COUNTERS}: when its window started and the hits in it. */
public final class WindowCounter implements IdentifiedDataSerializable {
    private long windowStart;
    private long count;

    /** For deserialization. */
    public WindowCounter() {
    }

    public WindowCounter(long windowStart, long count) {
        this.windowStart = windowStart;
        this.count = count;
    }

    /** Start of the window, epoch milliseconds on the clock of the member that owns the key. */
    public long windowStart() {
        return windowStart;
    }

    public long count() {
        return count;
    }

    public Instant windowStartInstant() {
        return Instant.ofEpochMilli(windowStart);
    }

    @Override
    public int getFactoryId() {
        return GridSerialization.FACTORY_ID;
    }

    @Override
    public int getClassId() {
        return GridSerialization.WINDOW_COUNTER;
    }

    @Override
    public void writeData(ObjectDataOutput out) throws IOException {
        out.writeLong(windowStart);
        out.writeLong(count);
    }

    @Override
    public void readData(ObjectDataInput in) throws IOException {
        windowStart = in.readLong();
        count = in.readLong();
    }

    @Override
    public String toString() {
        return "WindowCounter[windowStart=" + windowStart + ", count=" + count + "]";
    }
}
