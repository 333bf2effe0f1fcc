package io.pylon.core.server;

import java.util.logging.LogManager;

/**
 * The JDK's log manager, except that the reset its own shutdown hook does is held back until the pod has logged
 * that it stopped: JUL resets (closes every handler) in a shutdown hook that runs concurrently with the pod's, so the
 * pod's last lines were lost. Chosen with {@code -Djava.util.logging.manager}, set by {@code pylon run} before any
 * logging starts; everything else about logging is unchanged.
 *
 * <p>Threading: {@link #resetNow()} and the deferred reset may race; {@link LogManager#reset()} is thread-safe.
 */
public final class PodLogManager extends LogManager {
    private static final String SHUTDOWN_HOOK_CLASS = "java.util.logging.LogManager$Cleaner";

    private volatile boolean resetDeferred;
    private volatile boolean podStopped;

    @Override
    public void reset() {
        if (!podStopped && Thread.currentThread().getClass().getName().equals(SHUTDOWN_HOOK_CLASS)) {
            resetDeferred = true;
            return;
        }
        super.reset();
    }

    /** Called by a pod after its last log line: performs the reset the shutdown hook asked for, if it did. */
    public static void resetNow() {
        if (LogManager.getLogManager() instanceof PodLogManager manager) {
            manager.podStopped = true;
            if (manager.resetDeferred) {
                manager.flushAndReset();
            }
        }
    }

    private void flushAndReset() {
        super.reset();
    }
}
