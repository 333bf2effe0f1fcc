package io.pylon.worker.usage;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts each request that carried an application's key into its (application, proxy, minute) cell, in memory: no
 * metrics label per application or key. {@link #drain()} hands the cells over to the {@link UsageReporter} and starts
 * them afresh. At most {@code maxEntries} cells are held, counting here and waiting in the reporter together; a
 * request that would need one more is not counted and adds to {@link #dropped()}.
 *
 * <p>Threading: request threads call {@link #record} concurrently, the reporter's thread calls {@link #drain}. A cell is
 * read and written only under its own monitor; a drain marks it drained under that monitor while taking it out of the
 * map (inside {@link ConcurrentHashMap#computeIfPresent} for its key), so a drained cell is never written again: a
 * request that finds one counts into a new cell made inside {@link ConcurrentHashMap#compute}, and no count falls
 * between a drain and the next cell. The common case, a cell already there, takes no map lock and allocates no
 * lambda. The count of cells held (here and in the reporter) is an atomic the reporter lowers through
 * {@link #released}.
 */
public final class UsageRecorder {
    private record Key(String application, String proxy, long minute) {
    }

    /** Mutable; only touched under its own monitor. */
    private static final class Cell {
        private long requests;
        private long clientErrors;
        private long serverErrors;
        private long latencySum;
        private long latencyMax;
        private boolean drained;

        /** False when the cell was drained: the request belongs in a new one. */
        synchronized boolean add(int status, long micros) {
            if (drained) {
                return false;
            }
            requests++;
            if (status >= 500) {
                serverErrors++;
            } else if (status >= 400) {
                clientErrors++;
            }
            latencySum += micros;
            latencyMax = Math.max(latencyMax, micros);
            return true;
        }

        synchronized UsageEntry drain(Key key) {
            drained = true;
            return new UsageEntry(key.application(), key.proxy(), key.minute(), requests, clientErrors, serverErrors,
                    latencySum, latencyMax);
        }
    }

    private final ConcurrentHashMap<Key, Cell> cells = new ConcurrentHashMap<>();
    private final int maxEntries;
    private final AtomicInteger held = new AtomicInteger();
    private final LongAdder dropped = new LongAdder();
    private final LongAdder recorded = new LongAdder();

    public UsageRecorder(int maxEntries) {
        this.maxEntries = maxEntries;
    }

    /** @param latencyNanos from the request's arrival to its answer's end */
    public void record(String application, String proxy, int status, long latencyNanos, long epochMillis) {
        Key key = new Key(application, proxy, Math.floorDiv(epochMillis, 60_000L));
        long micros = Math.max(0, latencyNanos / 1000);
        Cell cell = cells.get(key);
        if (cell != null && cell.add(status, micros)) {
            recorded.increment();
            return;
        }
        cells.compute(key, (k, present) -> {
            Cell c = present; // never a drained one: a drain takes its cell out under this key's lock
            if (c == null) {
                if (held.get() >= maxEntries) {
                    dropped.increment();
                    return null;
                }
                held.incrementAndGet();
                c = new Cell();
            }
            c.add(status, micros);
            recorded.increment();
            return c;
        });
    }

    /**
     * Takes every cell out (they become the caller's to keep until the Manager acknowledged them; they still count
     * towards the bound until {@link #released} says so).
     */
    List<UsageEntry> drain() {
        List<UsageEntry> out = new ArrayList<>();
        for (Key key : cells.keySet()) {
            cells.computeIfPresent(key, (k, c) -> {
                out.add(c.drain(k));
                return null;
            });
        }
        return out;
    }

    /** Entries the reporter no longer holds (acknowledged, or refused by the Manager). */
    void released(int entries) {
        held.addAndGet(-entries);
    }

    /** Requests of entries the reporter gave up on without an acknowledgement (the Manager refused them). */
    void lost(long requests) {
        dropped.add(requests);
    }

    /** Requests not counted for want of room, plus counts the Manager refused. */
    public long dropped() {
        return dropped.sum();
    }

    public long recorded() {
        return recorded.sum();
    }

    /** Cells held: counting here plus waiting for the Manager's acknowledgement. */
    public int held() {
        return held.get();
    }
}
