package io.pylon.cache.client;

import java.util.logging.Level;
import java.util.logging.Logger;

/** Hazelcast logs through JUL at WARNING and above: its INFO lines (banners, partition tables) would drown the pod's log. */
public final class GridLogging {
    // JUL keeps loggers weakly; holding it keeps the level.
    private static final Logger HAZELCAST = Logger.getLogger("com.hazelcast");

    private GridLogging() {
    }

    /** Hazelcast's log level: WARNING unless an operator asks for more while troubleshooting. */
    public static void level(Level level) {
        HAZELCAST.setLevel(level);
    }

    /** Hazelcast properties shared by members and clients: JUL logging, no phone-home. */
    public static void apply(java.util.function.BiConsumer<String, String> property) {
        if (HAZELCAST.getLevel() == null) {
            level(Level.WARNING);
        }
        property.accept("hazelcast.logging.type", "jdk");
        property.accept("hazelcast.phone.home.enabled", "false");
    }
}
