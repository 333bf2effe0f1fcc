package io.pylon.core.diagnostics.postmortem;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * The trigger of repeated 429s on heavy diagnostics: {@code pylon.diagnostics.postmortem.busy-refusals} refusals
 * within {@code busy-window} fire a capture, written on the maintenance executor (never on the refused request's
 * thread, which answers 429 at once).
 *
 * <p>Threading: {@link #refused()} is called concurrently by request threads; the window of refusal times is
 * guarded by this object's monitor.
 */
final class HeavyRefusals implements Runnable {
    private final BlackBox blackBox;
    private final Executor maintenance;
    private final int threshold;
    private final long windowNanos;
    private final Deque<Long> times = new ArrayDeque<>();

    HeavyRefusals(BlackBox blackBox, Executor maintenance, int threshold, Duration window) {
        this.blackBox = blackBox;
        this.maintenance = maintenance;
        this.threshold = threshold;
        this.windowNanos = window.toNanos();
    }

    @Override
    public void run() {
        refused();
    }

    void refused() {
        long now = System.nanoTime();
        synchronized (this) {
            times.addLast(now);
            while (!times.isEmpty() && now - times.peekFirst() > windowNanos) {
                times.removeFirst();
            }
            if (times.size() < threshold) {
                return;
            }
            times.clear();
        }
        String reason = threshold + " heavy diagnostics calls refused with 429 within " + windowNanos / 1_000_000 + " ms";
        try {
            maintenance.execute(() -> blackBox.capture(List.of(new BlackBox.Firing(Trigger.HEAVY_REFUSALS, reason))));
        } catch (RejectedExecutionException e) {
            // the pod is stopping
        }
    }
}
