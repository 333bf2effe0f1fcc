package io.pylon.core.diagnostics;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Log levels changed for a time: {@link #set} changes a java.util.logging level (Pylon's System.Logger, Helidon's and
 * Hazelcast's loggers all end there) and schedules its revert on the pod's maintenance executor; {@link #revert}
 * restores the level at once. The level restored is the one before the first of overlapping changes, so a change
 * made during another one does not make the temporary level permanent.
 *
 * <p>Threading: the table of changes is one per JVM, as java.util.logging is (several test pods in one JVM share the
 * same loggers); every access holds the class lock {@code TABLE}. The Logger of a change is held strongly while the
 * change lasts: java.util.logging keeps loggers weakly, and a collected logger would forget its level.
 */
final class LogLevelOverrides implements AutoCloseable {
    private static final Object TABLE = new Object();
    private static final Map<String, Change> CHANGES = new HashMap<>();
    private static long sequence;
    private static final System.Logger LOG = System.getLogger(LogLevelOverrides.class.getName());

    private final ScheduledExecutorService maintenance;
    private final Clock clock;

    /** A level in force until {@code revertsAt}; {@code previous} is null when the logger inherited its level. */
    record Change(long id, Logger logger, Level previous, Level level, Instant revertsAt, ScheduledFuture<?> revert,
                  LogLevelOverrides owner) {
    }

    LogLevelOverrides(ScheduledExecutorService maintenance, Clock clock) {
        this.maintenance = maintenance;
        this.clock = clock;
    }

    /** Sets {@code level} on the logger for {@code ttl}; answers the change in force. */
    Change set(String name, Level level, Duration ttl) {
        synchronized (TABLE) {
            Change earlier = CHANGES.remove(name);
            Logger logger = earlier != null ? earlier.logger() : Logger.getLogger(name);
            Level previous = earlier != null ? earlier.previous() : logger.getLevel();
            if (earlier != null) {
                earlier.revert().cancel(false);
            }
            logger.setLevel(level);
            letHandlersPass(level);
            long id = ++sequence;
            ScheduledFuture<?> revert = maintenance.schedule(() -> expire(name, id), ttl.toMillis(), TimeUnit.MILLISECONDS);
            Change change = new Change(id, logger, previous, level, clock.instant().plus(ttl), revert, this);
            CHANGES.put(name, change);
            LOG.log(System.Logger.Level.INFO, "Log level of '" + display(name) + "' set to " + level.getName()
                    + " for " + ttl.toSeconds() + " s (was " + (previous == null ? "inherited" : previous.getName()) + ")");
            return change;
        }
    }

    /** Restores the level before the change now; empty when there was no change of that logger. */
    Optional<Change> revert(String name) {
        synchronized (TABLE) {
            Change change = CHANGES.remove(name);
            if (change == null) {
                return Optional.empty();
            }
            change.revert().cancel(false);
            change.logger().setLevel(change.previous());
            LOG.log(System.Logger.Level.INFO, "Log level of '" + display(name) + "' back to "
                    + (change.previous() == null ? "inherited" : change.previous().getName()));
            return Optional.of(change);
        }
    }

    /** The change in force for a logger, if any. */
    static Optional<Change> current(String name) {
        synchronized (TABLE) {
            return Optional.ofNullable(CHANGES.get(name));
        }
    }

    private void expire(String name, long id) {
        synchronized (TABLE) {
            Change change = CHANGES.get(name);
            // a later change has scheduled its own revert: this run, already started when it was cancelled, is stale
            if (change != null && change.id() == id) {
                revert(name);
            }
        }
    }

    /**
     * The root handlers filter too: a handler at INFO would drop the FINE records a change asks for. Handlers are only
     * ever lowered, never raised back: loggers still filter, so a low handler level costs nothing by itself.
     */
    private static void letHandlersPass(Level level) {
        for (Handler handler : Logger.getLogger("").getHandlers()) {
            if (handler.getLevel().intValue() > level.intValue()) {
                handler.setLevel(level);
            }
        }
    }

    /** The pod stops: its scheduled reverts would never run, so the changes it made are reverted now. */
    @Override
    public void close() {
        synchronized (TABLE) {
            for (String name : CHANGES.entrySet().stream().filter(e -> e.getValue().owner() == this)
                    .map(Map.Entry::getKey).toList()) {
                revert(name);
            }
        }
    }

    static String display(String name) {
        return name.isEmpty() ? "root" : name;
    }
}
