package io.pylon.core.server;

import io.helidon.webserver.WebServer;
import io.pylon.core.health.HealthRegistry;
import io.pylon.core.health.ShutdownCheck;
import io.pylon.core.pod.PodIdentity;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.atomic.AtomicBoolean;

/** A running pod: one module's HTTP server and what it owns. */
public final class Pod implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(Pod.class.getName());

    private final PylonModule module;
    private final PodIdentity identity;
    private final WebServer server;
    private final HealthRegistry health;
    private final ShutdownCheck shutdown;
    private final Deque<AutoCloseable> resources;
    private final Duration shutdownDelay;
    private final AtomicBoolean stopped = new AtomicBoolean();

    Pod(PylonModule module, PodIdentity identity, WebServer server, HealthRegistry health, ShutdownCheck shutdown,
        Deque<AutoCloseable> resources, Duration shutdownDelay) {
        this.module = module;
        this.identity = identity;
        this.server = server;
        this.health = health;
        this.shutdown = shutdown;
        this.resources = new ArrayDeque<>(resources);
        this.shutdownDelay = shutdownDelay;
    }

    public PylonModule module() {
        return module;
    }

    public PodIdentity identity() {
        return identity;
    }

    /** The port actually bound (differs from the setting when that was 0). */
    public int port() {
        return server.port();
    }

    public boolean isRunning() {
        return server.isRunning();
    }

    public HealthRegistry health() {
        return health;
    }

    /**
     * Graceful stop: readiness turns DOWN, the optional delay lets load balancers notice, the server finishes
     * in-flight requests within its grace period, then the module's resources close in reverse order.
     */
    public void stop() {
        if (!stopped.compareAndSet(false, true)) {
            return;
        }
        shutdown.stopping();
        LOG.log(Level.INFO, "Pod " + identity.podName() + " stopping");
        if (!shutdownDelay.isZero()) {
            try {
                Thread.sleep(shutdownDelay);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        server.stop();
        while (!resources.isEmpty()) {
            AutoCloseable resource = resources.pop();
            try {
                resource.close();
            } catch (Exception e) {
                LOG.log(Level.WARNING, "Closing " + resource.getClass().getSimpleName() + " failed: " + e.getClass().getSimpleName());
            }
        }
        LOG.log(Level.INFO, "Pod " + identity.podName() + " stopped");
    }

    /** Stops the pod gracefully when the JVM is asked to exit (SIGTERM, SIGINT, System.exit). */
    public Pod stopOnShutdown() {
        Runtime.getRuntime().addShutdownHook(Thread.ofPlatform().name("pylon-shutdown").unstarted(this::stop));
        return this;
    }

    @Override
    public void close() {
        stop();
    }
}
