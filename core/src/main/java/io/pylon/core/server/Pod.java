package io.pylon.core.server;

import io.pylon.core.health.HealthRegistry;
import io.pylon.core.health.ShutdownCheck;
import io.pylon.core.pod.PodIdentity;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A running pod: one module's HTTP server and what it owns.
 *
 * <p>Threading: {@link #stop} may be called from any thread (a SIGTERM hook, a test, {@link #close}), more than once;
 * an atomic flag lets exactly one caller stop the pod, the others return at once.
 */
public final class Pod implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(Pod.class.getName());

    private final PylonModule module;
    private final PodIdentity identity;
    private final PodListener server;
    private final PodTraffic traffic;
    private final ConnectionTimeouts timeouts;
    private final HealthRegistry health;
    private final ShutdownCheck shutdown;
    private final Deque<AutoCloseable> resources;
    private final Duration shutdownDelay;
    private final AtomicBoolean stopped = new AtomicBoolean();

    /** How long no client may have connected before the listening socket closes, and the longest wait for that. */
    private static final Duration QUIET_BEFORE_CLOSE = Duration.ofMillis(250);
    private static final Duration MAX_WAIT_FOR_QUIET = Duration.ofSeconds(2);
    /** The longest wait for the listening socket to really close before connections are asked to close. */
    private static final Duration MAX_WAIT_FOR_LISTENER_CLOSE = Duration.ofSeconds(2);

    Pod(PylonModule module, PodIdentity identity, PodListener server, PodTraffic traffic, ConnectionTimeouts timeouts,
        HealthRegistry health, ShutdownCheck shutdown, Deque<AutoCloseable> resources, Duration shutdownDelay) {
        this.module = module;
        this.identity = identity;
        this.server = server;
        this.traffic = traffic;
        this.timeouts = timeouts;
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

    /** Requests the pod has answered (or failed) since it started. */
    public long finishedRequests() {
        return traffic.finished();
    }

    /**
     * Graceful stop: readiness turns DOWN. During the optional delay (load balancers notice) every answer says
     * {@code Connection: close} and connections idle between requests are closed. Then answers keep connections
     * open until no client has connected for a moment and the accept queue is empty, so that closing the listening
     * socket resets no connection the kernel had queued; the listener closes and, once connects are refused, every connection ends after
     * answering its next request with {@code Connection: close} (idle ones after {@link ConnectionTimeouts#DRAIN_IDLE});
     * in-flight requests get the grace period, and the module's resources close in reverse order.
     */
    public void stop() {
        if (!stopped.compareAndSet(false, true)) {
            return;
        }
        shutdown.stopping();
        LOG.log(Level.INFO, "Pod " + identity.podName() + " stopping (" + timeouts.open() + " connections open)");
        try {
            if (!shutdownDelay.isZero()) {
                traffic.closeConnections(true);
                timeouts.drain(true);
                Thread.sleep(shutdownDelay);
                traffic.closeConnections(false);
                timeouts.drain(false);
            }
            timeouts.awaitQuiet(QUIET_BEFORE_CLOSE, MAX_WAIT_FOR_QUIET, server.port());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        // Answers keep saying keep-alive until the listening socket is closed: a Connection: close now would make
        // clients reconnect into the accept queue, and closing the socket resets what it holds. Helidon closes the
        // socket first, then asks each connection to close (once connects are refused): its next request is
        // answered with Connection: close.
        timeouts.beforeAskingToClose(() -> server.awaitClosed(MAX_WAIT_FOR_LISTENER_CLOSE));
        LOG.log(Level.INFO, "Pod " + identity.podName() + " closes its listener (" + timeouts.open() + " connections open)");
        timeouts.stopping();
        server.stop();
        while (!resources.isEmpty()) {
            AutoCloseable resource = resources.pop();
            try {
                resource.close();
            } catch (Exception e) {
                LOG.log(Level.WARNING, "Closing " + resource.getClass().getSimpleName() + " failed: " + e.getClass().getSimpleName());
            }
        }
        LOG.log(Level.INFO, "Pod " + identity.podName() + " stopped after finishing " + traffic.finished() + " requests");
    }

    /** Stops the pod gracefully when the JVM is asked to exit (SIGTERM, SIGINT, System.exit). */
    public Pod stopOnShutdown() {
        Runtime.getRuntime().addShutdownHook(Thread.ofPlatform().name("pylon-shutdown").unstarted(() -> {
            stop();
            PodLogManager.resetNow();
        }));
        return this;
    }

    @Override
    public void close() {
        stop();
    }
}
