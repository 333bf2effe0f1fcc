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
 * <p>A pod holds at most {@code maxOverrides} changes at once (a change of a logger it has changed already replaces
 * it); one more is refused with 429 until one reverts. Changes are logged in batches: the first change after a quiet
 * second starts a batch that is written as one line a second later, naming up to ten loggers, so a caller who sets a
 * thousand levels writes one line, not a thousand.
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

    private static final int NAMED_PER_LINE = 10;
    private static final long BATCH_MILLIS = 1000;

    private final ScheduledExecutorService maintenance;
    private final Clock clock;
    private final int maxOverrides;
    /** The changes of the batch being gathered, guarded by {@code TABLE}; empty when no batch is open. */
    private final java.util.List<String> batch = new java.util.ArrayList<>();
    private int batchSize;

    /** A level in force until {@code revertsAt}; {@code previous} is null when the logger inherited its level. */
    record Change(long id, Logger logger, Level previous, Level level, Instant revertsAt, ScheduledFuture<?> revert,
                  LogLevelOverrides owner) {
    }

    LogLevelOverrides(ScheduledExecutorService maintenance, Clock clock) {
        this(maintenance, clock, Integer.MAX_VALUE);
    }

    LogLevelOverrides(ScheduledExecutorService maintenance, Clock clock, int maxOverrides) {
        this.maintenance = maintenance;
        this.clock = clock;
        this.maxOverrides = maxOverrides;
    }

    /** Sets {@code level} on the logger for {@code ttl}; answers the change in force. */
    Change set(String name, Level level, Duration ttl) {
        synchronized (TABLE) {
            if (!CHANGES.containsKey(name) && owned().size() >= maxOverrides) {
                long soonest = owned().stream().mapToLong(c -> c.revertsAt().toEpochMilli()).min().orElse(0);
                int retryAfter = (int) Math.max(1, Math.ceilDiv(soonest - clock.millis(), 1000));
                throw new DiagnosticsBusyException("This pod holds " + maxOverrides + " temporary log levels, the most it "
                        + "keeps (" + DiagnosticsSettings.LOGGERS_MAX_OVERRIDES.key() + "); revert some (DELETE loggers "
                        + "with all=true reverts every one) or retry in " + retryAfter + " s.", retryAfter);
            }
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
            note(display(name) + "=" + level.getName() + " for " + ttl.toSeconds() + " s (was "
                    + (previous == null ? "inherited" : previous.getName()) + ")");
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
            note(display(name) + " back to " + (change.previous() == null ? "inherited" : change.previous().getName()));
            return Optional.of(change);
        }
    }

    /** Reverts every change this pod made, now; answers the names of the loggers, sorted. */
    java.util.List<String> revertAll() {
        synchronized (TABLE) {
            java.util.List<String> names = CHANGES.entrySet().stream().filter(e -> e.getValue().owner() == this)
                    .map(Map.Entry::getKey).sorted().toList();
            for (String name : names) {
                revert(name);
            }
            return names.stream().map(LogLevelOverrides::display).toList();
        }
    }

    int maxOverrides() {
        return maxOverrides;
    }

    /** How many changes this pod holds now. */
    int count() {
        synchronized (TABLE) {
            return owned().size();
        }
    }

    private java.util.List<Change> owned() {
        return CHANGES.values().stream().filter(c -> c.owner() == this).toList();
    }

    // Called holding TABLE: the first change of a batch schedules the line that reports the whole batch.
    private void note(String what) {
        if (batchSize == 0) {
            try {
                maintenance.schedule(this::flush, BATCH_MILLIS, TimeUnit.MILLISECONDS);
            } catch (java.util.concurrent.RejectedExecutionException e) {
                // the pod is stopping: report at once
                batchSize++;
                batch.add(what);
                flush();
                return;
            }
        }
        batchSize++;
        if (batch.size() < NAMED_PER_LINE) {
            batch.add(what);
        }
    }

    private void flush() {
        synchronized (TABLE) {
            if (batchSize == 0) {
                return;
            }
            int more = batchSize - batch.size();
            LOG.log(System.Logger.Level.INFO, batchSize + " temporary log level change(s): " + String.join("; ", batch)
                    + (more > 0 ? "; and " + more + " more" : "") + " (" + owned().size() + " in force on this pod)");
            batch.clear();
            batchSize = 0;
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
            revertAll();
            flush();
        }
    }

    static String display(String name) {
        return name.isEmpty() ? "root" : name;
    }
}
