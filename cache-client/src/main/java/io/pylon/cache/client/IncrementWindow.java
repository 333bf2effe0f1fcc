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

/**
 * Runs on the member that owns a counter: adds one hit to the current fixed window, or starts a new window when the
 * stored one is over. Windows are aligned on the owner's clock (one clock per key, whichever Worker asks), and the
 * entry expires shortly after its window so idle counters cost nothing. The backup receives the resulting value, not
 * this processor, so primary and backup can never disagree across a window boundary.
 */
public final class IncrementWindow implements EntryProcessor<String, WindowCounter, WindowCounter>, IdentifiedDataSerializable {
    /** TTL below one second could be rounded to "no expiry"; leftovers of past windows are harmless (windowStart differs). */
    static final long MIN_TTL_MILLIS = 1_000;

    private long windowMillis;
    private transient @Nullable WindowCounter result;
    private transient long ttlMillis;

    /** For deserialization. */
    public IncrementWindow() {
    }

    public IncrementWindow(long windowMillis) {
        if (windowMillis <= 0) {
            throw new IllegalArgumentException("window must be positive");
        }
        this.windowMillis = windowMillis;
    }

    @Override
    public WindowCounter process(Map.Entry<String, WindowCounter> entry) {
        long now = System.currentTimeMillis();
        long start = now - Math.floorMod(now, windowMillis);
        WindowCounter current = entry.getValue();
        long count = current != null && current.windowStart() == start ? current.count() + 1 : 1;
        result = new WindowCounter(start, count);
        ttlMillis = Math.max(MIN_TTL_MILLIS, start + windowMillis - now + MIN_TTL_MILLIS);
        @SuppressWarnings("unchecked")
        ExtendedMapEntry<String, WindowCounter> extended = (ExtendedMapEntry<String, WindowCounter>) entry;
        extended.setValue(result, ttlMillis, TimeUnit.MILLISECONDS);
        return result;
    }

    @Override
    public @Nullable EntryProcessor<String, WindowCounter, WindowCounter> getBackupProcessor() {
        return result == null ? null : new PutWindowCounter(result, ttlMillis);
    }

    @Override
    public int getFactoryId() {
        return GridSerialization.FACTORY_ID;
    }

    @Override
    public int getClassId() {
        return GridSerialization.INCREMENT_WINDOW;
    }

    @Override
    public void writeData(ObjectDataOutput out) throws IOException {
        out.writeLong(windowMillis);
    }

    @Override
    public void readData(ObjectDataInput in) throws IOException {
        windowMillis = in.readLong();
    }
}
