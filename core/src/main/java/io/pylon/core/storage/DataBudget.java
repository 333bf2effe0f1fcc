package io.pylon.core.storage;

import org.jspecify.annotations.Nullable;

import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One byte budget for everything a pod writes into its data directory. A writer registers its {@link Kind} once (a
 * name, a cap on count and one on bytes) and {@link #reserve reserves} the bytes of each file before it writes it;
 * the reservation is {@link Reservation#resize resized} to what was really written and {@link Reservation#close
 * closed} when the file goes. A reservation that would pass the budget or its kind's caps is refused with
 * {@link BudgetExceededException} (answered 507), unless files marked {@link Reservation#evictable evictable}
 * (finished flight recordings, where the operator allows it) can be removed to make room: the oldest go first.
 *
 * <p>The budget counts what Pylon writes, not the disk: writers still check the file system's free space, which other
 * programs share.
 *
 * <p>Threading: every count is guarded by this object's monitor. The removal of evicted files runs on the reserving
 * thread after the monitor is released, so that a remover may take its owner's lock without a lock-order cycle with a
 * thread that holds that lock and waits for the budget.
 */
public final class DataBudget {
    private static final System.Logger LOG = System.getLogger(DataBudget.class.getName());

    private final long limitBytes;
    private final String limitName;
    private final boolean evictionAllowed;
    private final Map<String, Kind> kinds = new LinkedHashMap<>();
    /** Evictable reservations, oldest first. */
    private final List<Reservation> evictable = new ArrayList<>();
    private long usedBytes;

    /**
     * @param limitBytes      the budget
     * @param limitName       the setting that gives it, named in every refusal
     * @param evictionAllowed whether evictable files may be removed to make room
     */
    public DataBudget(long limitBytes, String limitName, boolean evictionAllowed) {
        this.limitBytes = limitBytes;
        this.limitName = limitName;
        this.evictionAllowed = evictionAllowed;
    }

    public long limitBytes() {
        return limitBytes;
    }

    /**
     * Registers (or returns the registered) kind of file: at most {@code maxCount} files and {@code maxBytes} bytes of
     * it at once; {@code maxBytes} above the budget is the budget.
     *
     * @param capName the setting that bounds the kind, named in refusals (or a description of a fixed cap)
     */
    public synchronized Kind kind(String name, int maxCount, long maxBytes, String capName) {
        return kinds.computeIfAbsent(name, n -> new Kind(n, maxCount, Math.min(maxBytes, limitBytes), capName));
    }

    /**
     * Reserves {@code bytes} for one new file of {@code kind}, removing evictable files first where that makes it fit.
     *
     * @throws BudgetExceededException when it does not fit
     */
    public Reservation reserve(Kind kind, long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("negative size");
        }
        List<Reservation> victims = new ArrayList<>();
        Reservation reservation;
        try {
            synchronized (this) {
                while (!fits(kind, bytes, 1)) {
                    Reservation victim = evictionAllowed ? oldestEvictable(kind, bytes) : null;
                    if (victim == null) {
                        throw refusal(kind, bytes, 1);
                    }
                    release(victim);
                    victims.add(victim);
                }
                reservation = new Reservation(this, kind, bytes);
                kind.count++;
                kind.bytes += bytes;
                usedBytes += bytes;
            }
        } finally {
            removeOutsideTheLock(victims);
        }
        return reservation;
    }

    /** What the budget holds now, for diagnostics: limit, used, and per kind count, bytes and caps. */
    public synchronized Map<String, Object> describe() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("limitBytes", limitBytes);
        map.put("usedBytes", usedBytes);
        map.put("setting", limitName);
        Map<String, Object> perKind = new LinkedHashMap<>();
        for (Kind kind : kinds.values()) {
            Map<String, Object> k = new LinkedHashMap<>();
            k.put("count", kind.count);
            k.put("bytes", kind.bytes);
            k.put("maxCount", kind.maxCount);
            k.put("maxBytes", kind.maxBytes);
            perKind.put(kind.name, k);
        }
        map.put("kinds", perKind);
        return map;
    }

    public synchronized long usedBytes() {
        return usedBytes;
    }

    private boolean fits(Kind kind, long bytes, int files) {
        return usedBytes + bytes <= limitBytes && kind.count + files <= kind.maxCount && kind.bytes + bytes <= kind.maxBytes;
    }

    /** The oldest evictable file whose removal helps: of the same kind when the kind's cap is what is short. */
    private @Nullable Reservation oldestEvictable(Kind kind, long bytes) {
        boolean kindShort = kind.count + 1 > kind.maxCount || kind.bytes + bytes > kind.maxBytes;
        for (Reservation candidate : evictable) {
            if (!kindShort || candidate.kind == kind) {
                return candidate;
            }
        }
        return null;
    }

    private BudgetExceededException refusal(Kind kind, long bytes, int files) {
        if (usedBytes + bytes > limitBytes) {
            return new BudgetExceededException("The data directory's budget (" + limitName + ", " + mib(limitBytes)
                    + " MiB) has " + mib(limitBytes - usedBytes) + " MiB left; this needs " + mib(bytes) + " MiB.",
                    limitName, kind.name, limitBytes, usedBytes, bytes);
        }
        if (kind.count + files > kind.maxCount) {
            return new BudgetExceededException("The data directory holds " + kind.count + " " + kind.name
                    + ", the most it keeps (" + kind.capName + ": " + kind.maxCount + ").",
                    kind.capName, kind.name, kind.maxBytes, kind.bytes, bytes);
        }
        return new BudgetExceededException("The " + kind.name + " in the data directory take " + mib(kind.bytes)
                + " MiB of their " + mib(kind.maxBytes) + " MiB (" + kind.capName + "); this needs " + mib(bytes) + " MiB.",
                kind.capName, kind.name, kind.maxBytes, kind.bytes, bytes);
    }

    private void release(Reservation reservation) {
        if (reservation.released) {
            return;
        }
        reservation.released = true;
        evictable.remove(reservation);
        reservation.kind.count--;
        reservation.kind.bytes -= reservation.bytes;
        usedBytes -= reservation.bytes;
    }

    private static void removeOutsideTheLock(List<Reservation> victims) {
        for (Reservation victim : victims) {
            Runnable remover = victim.remover;
            if (remover == null) {
                continue; // only files marked evictable (so with a remover) are ever victims
            }
            try {
                remover.run();
                LOG.log(Level.INFO, "Removed a " + victim.kind.name + " file of " + mib(victim.bytes)
                        + " MiB to make room in the data directory's budget");
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "Cannot remove an evicted " + victim.kind.name + " file: "
                        + e.getClass().getSimpleName());
            }
        }
    }

    private static long mib(long bytes) {
        return Math.ceilDiv(Math.max(bytes, 0), 1024 * 1024);
    }

    /** A kind of file with its caps; counted under the budget's monitor. */
    public static final class Kind {
        private final String name;
        private final int maxCount;
        private final long maxBytes;
        private final String capName;
        private int count;
        private long bytes;

        private Kind(String name, int maxCount, long maxBytes, String capName) {
            this.name = name;
            this.maxCount = maxCount;
            this.maxBytes = maxBytes;
            this.capName = capName;
        }

        public String name() {
            return name;
        }

        public long maxBytes() {
            return maxBytes;
        }

        public int maxCount() {
            return maxCount;
        }
    }

    /**
     * The bytes of one file, held until {@link #close()} (idempotent). Threading: guarded by the budget's monitor.
     */
    public static final class Reservation implements AutoCloseable {
        private final DataBudget budget;
        private final Kind kind;
        private long bytes;
        private boolean released;
        private @Nullable Runnable remover;

        private Reservation(DataBudget budget, Kind kind, long bytes) {
            this.budget = budget;
            this.kind = kind;
            this.bytes = bytes;
        }

        /**
         * Sets the reservation to the file's real size: shrinking always works; growing is refused like a new
         * reservation (the kind's count is already held).
         *
         * @throws BudgetExceededException when the growth does not fit
         */
        public void resize(long newBytes) {
            List<Reservation> victims = new ArrayList<>();
            try {
                synchronized (budget) {
                    if (released) {
                        return;
                    }
                    long delta = newBytes - bytes;
                    while (delta > 0 && !budget.fits(kind, delta, 0)) {
                        Reservation victim = budget.evictionAllowed ? budget.oldestEvictable(kind, delta) : null;
                        if (victim == null || victim == this) {
                            throw budget.refusal(kind, delta, 0);
                        }
                        budget.release(victim);
                        victims.add(victim);
                    }
                    bytes = newBytes;
                    kind.bytes += delta;
                    budget.usedBytes += delta;
                }
            } finally {
                removeOutsideTheLock(victims);
            }
        }

        /**
         * Lets the budget remove this file to make room for newer ones, oldest marked first; {@code remover} deletes
         * it (and tells its owner) and is called at most once, without the budget's monitor held.
         */
        public void evictable(Runnable remover) {
            synchronized (budget) {
                if (!released && this.remover == null) {
                    this.remover = remover;
                    budget.evictable.add(this);
                }
            }
        }

        public long bytes() {
            synchronized (budget) {
                return bytes;
            }
        }

        @Override
        public void close() {
            synchronized (budget) {
                budget.release(this);
            }
        }
    }
}
