package io.pylon.core.diagnostics.postmortem;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The pod's black box: decides whether a trigger that fired writes a capture (at most one per trigger within
 * {@code pylon.diagnostics.postmortem.min-interval}), has it built and stores it. Triggers that fire together (a
 * deadlock also turns liveness DOWN) make one capture naming the first and listing the others.
 *
 * <p>Threading: {@link #capture} is called from the maintenance executor (periodic checks, 429 counting), from the
 * JVM's signal thread (SIGTERM) and from a thread dying of {@link OutOfMemoryError}; it is synchronized, so captures
 * are written one at a time and the per-trigger state below is guarded by this object's monitor.
 */
public final class BlackBox {
    private static final System.Logger LOG = System.getLogger(BlackBox.class.getName());

    /** One trigger firing, with what it saw ("2 threads deadlocked: a, b"). */
    public record Firing(Trigger trigger, String reason) {
    }

    private final CaptureWriter writer;
    private final CaptureStore store;
    private final Duration minInterval;
    private final Clock clock;
    private final Map<Trigger, Instant> lastCapture = new EnumMap<>(Trigger.class);
    private final Map<Trigger, Long> fired = new EnumMap<>(Trigger.class);
    private final Map<Trigger, Long> suppressed = new EnumMap<>(Trigger.class);

    BlackBox(CaptureWriter writer, CaptureStore store, Duration minInterval, Clock clock) {
        this.writer = writer;
        this.store = store;
        this.minInterval = minInterval;
        this.clock = clock;
    }

    public CaptureStore store() {
        return store;
    }

    /** Writes a capture for the triggers that are not rate-limited now; empty when all of them are, or it failed. */
    public synchronized Optional<CaptureInfo> capture(List<Firing> firings) {
        return capture(firings, true);
    }

    /**
     * A capture with the trigger and time only, for what happened to an earlier process (an OutOfMemoryError that
     * ended the JVM before any Java code could run): this process's sections would describe the wrong JVM.
     */
    synchronized Optional<CaptureInfo> note(Firing firing, Instant time) {
        return write(List.of(firing), time, false);
    }

    private Optional<CaptureInfo> capture(List<Firing> firings, boolean withSections) {
        Instant now = clock.instant();
        List<Firing> due = new ArrayList<>();
        for (Firing firing : firings) {
            fired.merge(firing.trigger(), 1L, Long::sum);
            Instant last = lastCapture.get(firing.trigger());
            if (last != null && Duration.between(last, now).compareTo(minInterval) < 0) {
                suppressed.merge(firing.trigger(), 1L, Long::sum);
            } else {
                due.add(firing);
            }
        }
        if (due.isEmpty()) {
            return Optional.empty();
        }
        for (Firing firing : due) {
            lastCapture.put(firing.trigger(), now);
        }
        return write(due, now, withSections);
    }

    private Optional<CaptureInfo> write(List<Firing> firings, Instant time, boolean withSections) {
        CaptureId id = CaptureId.next(time, firings.getFirst().trigger());
        long t0 = System.nanoTime();
        try {
            CaptureInfo info = store.save(id, writer.write(id, firings, withSections));
            LOG.log(Level.WARNING, "Postmortem capture " + id + " written (" + info.sizeBytes() + " bytes in "
                    + (System.nanoTime() - t0) / 1_000_000 + " ms): " + firings.getFirst().reason());
            return Optional.of(info);
        } catch (IOException | RuntimeException e) {
            LOG.log(Level.WARNING, "Postmortem capture " + id + " failed: " + e.getClass().getSimpleName());
            return Optional.empty();
        }
    }

    /** Per trigger: how often it fired, how often a capture was skipped for the rate limit, the last capture. */
    public synchronized Map<String, Object> triggers() {
        Map<String, Object> triggers = new LinkedHashMap<>();
        for (Trigger trigger : Trigger.values()) {
            Map<String, Object> state = new LinkedHashMap<>();
            state.put("fired", fired.getOrDefault(trigger, 0L));
            state.put("suppressed", suppressed.getOrDefault(trigger, 0L));
            Instant last = lastCapture.get(trigger);
            state.put("lastCapture", last == null ? null : last.toString());
            triggers.put(trigger.id(), state);
        }
        return triggers;
    }
}
