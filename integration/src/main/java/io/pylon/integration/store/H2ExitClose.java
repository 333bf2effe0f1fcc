package io.pylon.integration.store;

import org.jspecify.annotations.Nullable;

import java.lang.reflect.Field;

/**
 * Closes the H2 databases this JVM serves when the pod's stop reaches it, instead of when the JVM starts to exit.
 *
 * <p>H2 closes its embedded databases in a shutdown hook of its own ({@code OnExitDatabaseCloser}), and refuses
 * {@code DB_CLOSE_ON_EXIT=FALSE} in automatic mixed mode. Shutdown hooks run side by side, so on SIGTERM the file closed
 * while the pod's stop was still letting the scheduler poll and runs record their results: "Database is already
 * closed" and a SEVERE from db-scheduler on every stop of the pod that served the file. {@link #takeOver()} removes
 * that hook (and keeps H2 from adding it again while it has a database open, as when this pod takes the file over
 * from one that died); {@link #close()}
 * runs it, as the pod's last resource. Where H2's internals differ from what this expects, nothing changes and H2
 * closes the file itself as before.
 *
 * <p>Threading: {@link #takeOver()} holds the lock H2 registers its hook under; {@link #close()} runs once, on the
 * pod's stopping thread.
 */
public final class H2ExitClose implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(H2ExitClose.class.getName());
    private static final String CLOSER = "org.h2.engine.OnExitDatabaseCloser";

    private final Thread hook;

    private H2ExitClose(Thread hook) {
        this.hook = hook;
    }

    /** Takes H2's exit hook over; null where that is not possible (H2 then closes the file at exit, as before). */
    public static @Nullable H2ExitClose takeOver() {
        try {
            Class<?> closer = Class.forName(CLOSER, true, H2ExitClose.class.getClassLoader());
            Field instance = closer.getDeclaredField("INSTANCE");
            Field registered = closer.getDeclaredField("registered");
            instance.setAccessible(true);
            registered.setAccessible(true);
            Thread hook = (Thread) instance.get(null);
            synchronized (closer) { // H2's register() and unregister() are static synchronized
                if (registered.getBoolean(null)) {
                    Runtime.getRuntime().removeShutdownHook(hook);
                }
                registered.setBoolean(null, true);
            }
            return new H2ExitClose(hook);
        } catch (ReflectiveOperationException | RuntimeException e) {
            LOG.log(System.Logger.Level.DEBUG, "H2 closes its database at exit itself: " + e);
            return null;
        }
    }

    /** Closes every H2 database of this JVM, as H2's hook would (the other pods' connections move to one of them). */
    @Override
    public void close() throws InterruptedException {
        hook.start(); // the thread H2 would have started at exit, removed from the JVM's hooks: never started before
        hook.join();
    }
}
