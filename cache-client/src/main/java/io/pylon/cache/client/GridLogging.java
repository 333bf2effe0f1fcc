package io.pylon.cache.client;

import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Hazelcast logs through JUL at WARNING and above: its INFO lines (banners, partition tables) would drown the pod's
 * log. Every Hazelcast line goes through {@link RedactingLoggerFactory}, because Hazelcast prefixes each member line
 * with the cluster name, which is a secret ({@link GridClusterName}).
 */
public final class GridLogging {
    // JUL keeps loggers weakly; holding it keeps the level.
    private static final Logger HAZELCAST = Logger.getLogger("com.hazelcast");
    // Hazelcast reads this system property (not a config property) each time an instance builds its logging.
    private static final String LOGGING_CLASS = "hazelcast.logging.class";

    private GridLogging() {
    }

    /** Hazelcast's log level: WARNING unless an operator asks for more while troubleshooting. */
    public static void level(Level level) {
        HAZELCAST.setLevel(level);
    }

    /**
     * Hazelcast properties shared by members and clients: JUL logging with the cluster name replaced by its label,
     * no phone-home. Call before the instance is created.
     */
    public static void apply(GridClusterName name, java.util.function.BiConsumer<String, String> property) {
        if (HAZELCAST.getLevel() == null) {
            level(Level.WARNING);
        }
        RedactingLoggerFactory.hide(name);
        System.setProperty(LOGGING_CLASS, RedactingLoggerFactory.class.getName());
        property.accept("hazelcast.logging.type", "jdk");
        property.accept("hazelcast.phone.home.enabled", "false");
    }
}
