package io.pylon.cache.client;

import com.hazelcast.config.SerializationConfig;
import com.hazelcast.nio.serialization.DataSerializableFactory;
import com.hazelcast.nio.serialization.IdentifiedDataSerializable;

/**
 * The platform's own grid types, written with Hazelcast's compact IdentifiedDataSerializable format (no Java
 * serialization, no reflection). Members and clients both register the factory.
 */
public final class GridSerialization implements DataSerializableFactory {
    /** Any stable number unique among the factories of the cluster. */
    public static final int FACTORY_ID = 6_0001;
    static final int WINDOW_COUNTER = 1;
    static final int INCREMENT_WINDOW = 2;
    static final int PUT_WINDOW_COUNTER = 3;
    static final int GRID_BUNDLE = 4;
    static final int PUT_NEWER_BUNDLE = 5;

    public static void register(SerializationConfig config) {
        config.addDataSerializableFactory(FACTORY_ID, new GridSerialization());
    }

    @Override
    public IdentifiedDataSerializable create(int typeId) {
        return switch (typeId) {
            case WINDOW_COUNTER -> new WindowCounter();
            case INCREMENT_WINDOW -> new IncrementWindow();
            case PUT_WINDOW_COUNTER -> new PutWindowCounter();
            case GRID_BUNDLE -> new GridBundle();
            case PUT_NEWER_BUNDLE -> new PutNewerBundle();
            default -> throw new IllegalArgumentException("unknown grid type " + typeId);
        };
    }
}
