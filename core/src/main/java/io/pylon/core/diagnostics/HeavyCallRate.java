package io.pylon.core.diagnostics;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * How many heavy diagnostics calls (a histogram that forces a full collection, thread dumps, hot threads, starting a
 * recording, a heavy {@code all}) one pod builds per minute: a token bucket per caller and one for the pod, each
 * holding a minute's worth of calls and refilled evenly over the minute. A call takes a token from both or is refused
 * with 429 and the seconds until the emptier bucket has one again. Unlike the concurrency limit, this bounds the rate
 * of calls that are each quick (a histogram is one full GC), so no caller can keep a pod in back-to-back collections.
 *
 * <p>The caller is what the diagnostics endpoint names: the Manager's user ({@code caller=} set by the Manager, passed
 * on to every pod of a broadcast), else the TCP peer. Anyone with the environment ID can name any caller, so the
 * per-pod bucket is the bound that always holds. At most {@link #MAX_CALLERS} callers are remembered (the least
 * recently seen are forgotten, which only gives them a full bucket again).
 *
 * <p>Threading: every method holds the instance lock (a few arithmetic operations per call).
 */
final class HeavyCallRate {
    static final int MAX_CALLERS = 10_000;
    private static final long MINUTE_NANOS = 60_000_000_000L;

    private final int perPod;
    private final int perCaller;
    private final LongSupplier nanoTime;
    private final Bucket pod;
    private final Map<String, Bucket> callers = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Bucket> eldest) {
            return size() > MAX_CALLERS;
        }
    };

    HeavyCallRate(int perPod, int perCaller, LongSupplier nanoTime) {
        this.perPod = perPod;
        this.perCaller = perCaller;
        this.nanoTime = nanoTime;
        this.pod = new Bucket(perPod, nanoTime.getAsLong());
    }

    /** Takes a token for {@code caller} and the pod, or throws {@link DiagnosticsBusyException} (429) taking none. */
    synchronized void admit(String caller) {
        refuseIfEmpty(caller).tokens -= 1;
        pod.tokens -= 1;
    }

    /** Throws as {@link #admit} would, taking nothing: a broadcast refused before any pod is asked. */
    synchronized void check(String caller) {
        refuseIfEmpty(caller);
    }

    /** Refills the caller's and the pod's buckets, throws when either is empty, and returns the caller's. */
    private Bucket refuseIfEmpty(String caller) {
        long now = nanoTime.getAsLong();
        Bucket own = callers.computeIfAbsent(caller, c -> new Bucket(perCaller, now));
        own.refill(perCaller, now);
        pod.refill(perPod, now);
        if (own.tokens < 1) {
            throw new DiagnosticsBusyException("The caller '" + caller + "' made its " + perCaller + " heavy diagnostics "
                    + "calls of the last minute on this pod (" + DiagnosticsSettings.HEAVY_RATE_PER_CALLER.key()
                    + "); retry in " + own.secondsToNext(perCaller) + " s.", own.secondsToNext(perCaller));
        }
        if (pod.tokens < 1) {
            throw new DiagnosticsBusyException("This pod built its " + perPod + " heavy diagnostics answers of the last "
                    + "minute (" + DiagnosticsSettings.HEAVY_RATE_PER_POD.key() + "); retry in "
                    + pod.secondsToNext(perPod) + " s.", pod.secondsToNext(perPod));
        }
        return own;
    }

    private static final class Bucket {
        double tokens;
        long at;

        Bucket(int capacity, long now) {
            this.tokens = capacity;
            this.at = now;
        }

        void refill(int perMinute, long now) {
            tokens = Math.min(perMinute, tokens + (now - at) * (double) perMinute / MINUTE_NANOS);
            at = now;
        }

        int secondsToNext(int perMinute) {
            double missing = 1 - tokens;
            return (int) Math.max(1, Math.ceil(missing * 60.0 / perMinute));
        }
    }
}
