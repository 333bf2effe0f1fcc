package io.pylon.core.diagnostics.postmortem;

import org.jspecify.annotations.Nullable;
import sun.misc.Signal;
import sun.misc.SignalHandler;

import java.lang.System.Logger.Level;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The JVM-wide events the black box listens to, each hooked once per JVM however many pods it runs (tests run
 * several): SIGTERM, through a handler that starts the listeners on a thread of their own and at once calls the
 * JVM's own handler, which starts the shutdown hooks: the pod's graceful stop (readiness DOWN, Connection: close) is
 * not delayed by the capture, which runs beside it, and a shutdown hook of this class waits for the capture (at most
 * {@link #SIGTERM_WAIT}) so the JVM does not halt in the middle of it; and an {@link OutOfMemoryError} that ends a
 * thread, through the default uncaught-exception handler, chained to the one set before.
 *
 * <p>Threading: listeners are kept in copy-on-write lists (added and removed from any thread, called from the
 * capture thread or the dying thread); installation is guarded by the class's monitor; the SIGTERM capture thread is
 * handed to the shutdown hook through a volatile field.
 */
final class JvmHooks {
    private static final System.Logger LOG = System.getLogger(JvmHooks.class.getName());
    private static final List<Runnable> SIGTERM = new CopyOnWriteArrayList<>();
    private static final List<Runnable> OUT_OF_MEMORY = new CopyOnWriteArrayList<>();
    /** The longest the JVM's exit waits for a SIGTERM capture still being written. */
    static final java.time.Duration SIGTERM_WAIT = java.time.Duration.ofSeconds(10);
    private static volatile @Nullable Thread sigtermCapture;
    private static boolean sigtermInstalled;
    private static boolean uncaughtInstalled;

    private JvmHooks() {
    }

    /** Runs {@code listener} when the JVM receives SIGTERM, before the shutdown hooks; close to stop. */
    static synchronized AutoCloseable onSigterm(Runnable listener) {
        if (!sigtermInstalled) {
            sigtermInstalled = true;
            try {
                Signal term = new Signal("TERM");
                SignalHandler[] previous = new SignalHandler[1];
                previous[0] = Signal.handle(term, signal -> {
                    if (sigtermCapture == null) {
                        sigtermCapture = Thread.ofPlatform().name("pylon-postmortem-sigterm").start(() -> runAll(SIGTERM));
                    }
                    chain(previous[0], signal);
                });
                Runtime.getRuntime().addShutdownHook(Thread.ofPlatform().name("pylon-postmortem-wait").unstarted(
                        JvmHooks::awaitSigtermCapture));
            } catch (IllegalArgumentException | UnsupportedOperationException e) {
                // -Xrs, or a platform without SIGTERM: no capture on SIGTERM
                LOG.log(Level.WARNING, "No postmortem capture on SIGTERM: the handler cannot be installed ("
                        + e.getClass().getSimpleName() + ")");
            }
        }
        SIGTERM.add(listener);
        return () -> SIGTERM.remove(listener);
    }

    /** Runs {@code listener} on a thread that ends with an uncaught {@link OutOfMemoryError}; close to stop. */
    static synchronized AutoCloseable onOutOfMemory(Runnable listener) {
        if (!uncaughtInstalled) {
            uncaughtInstalled = true;
            Thread.UncaughtExceptionHandler previous = Thread.getDefaultUncaughtExceptionHandler();
            Thread.setDefaultUncaughtExceptionHandler((thread, error) -> {
                if (error instanceof OutOfMemoryError) {
                    runAll(OUT_OF_MEMORY);
                }
                if (previous != null) {
                    previous.uncaughtException(thread, error);
                } else {
                    // what the JVM does without a handler
                    System.err.print("Exception in thread \"" + thread.getName() + "\" ");
                    error.printStackTrace(System.err);
                }
            });
        }
        OUT_OF_MEMORY.add(listener);
        return () -> OUT_OF_MEMORY.remove(listener);
    }

    private static void awaitSigtermCapture() {
        Thread capture = sigtermCapture;
        if (capture != null) {
            try {
                capture.join(SIGTERM_WAIT);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static void runAll(List<Runnable> listeners) {
        for (Runnable listener : listeners) {
            try {
                listener.run();
            } catch (RuntimeException | Error e) {
                // a failed capture must never keep the JVM from terminating
            }
        }
    }

    private static void chain(SignalHandler previous, Signal signal) {
        if (previous == SignalHandler.SIG_DFL || previous == null) {
            Runtime.getRuntime().exit(128 + signal.getNumber());
        } else if (previous != SignalHandler.SIG_IGN) {
            previous.handle(signal);
        }
    }
}
