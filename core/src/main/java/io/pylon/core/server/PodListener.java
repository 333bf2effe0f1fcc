package io.pylon.core.server;

import io.helidon.webserver.WebServer;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.function.IntFunction;

/**
 * The pod's HTTP listener, restarted when it dies. Helidon 4.5's listener stops for good when accept fails (e.g.
 * {@code Too many open files}), while {@link WebServer#isRunning()} still says true; a self-connect is what tells.
 *
 * <p>Threading: {@link #check()} runs on one maintenance thread, {@link #stop()} on the shutdown thread; the server
 * reference is volatile and replaced under this object's lock, which {@link #stop()} also takes.
 */
final class PodListener {
    private static final System.Logger LOG = System.getLogger(PodListener.class.getName());
    private static final int SELF_CONNECT_TIMEOUT_MS = 1000;

    private final IntFunction<WebServer> servers;
    private final String probeHost;
    private final int port;
    private volatile WebServer server;
    private volatile boolean accepting = true;
    private volatile boolean stopped;
    private volatile int restarts;

    PodListener(WebServer started, IntFunction<WebServer> servers, String bind) {
        this.server = started;
        this.servers = servers;
        this.port = started.port();
        this.probeHost = bind.equals("0.0.0.0") || bind.equals("::") || bind.equals("[::]") ? "127.0.0.1" : bind;
    }

    int port() {
        return port;
    }

    boolean isRunning() {
        return !stopped && server.isRunning();
    }

    /** False while the listener is known to be dead and could not be restarted yet (liveness turns DOWN). */
    boolean isAccepting() {
        return accepting;
    }

    int restarts() {
        return restarts;
    }

    /** Restarts the listener when a connect to it is refused. */
    synchronized void check() {
        if (stopped || !refused()) {
            accepting = true;
            return;
        }
        accepting = false;
        LOG.log(Level.WARNING, "The listener on port " + port + " stopped accepting connections; restarting it");
        try {
            WebServer fresh = servers.apply(port);
            fresh.start();
            if (!fresh.isRunning() || refused()) {
                fresh.stop();
                return;
            }
            server = fresh;
            restarts++;
            accepting = true;
            LOG.log(Level.WARNING, "The listener on port " + port + " accepts connections again");
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "Restarting the listener on port " + port + " failed (" + e.getClass().getSimpleName()
                    + "); retrying");
            return;
        }
        // The dead server is not stopped: its listener already closed its socket and connections, and stopping it
        // would run the shared routing's stop hooks, after which the fresh server closed every connection unanswered
        // (DescriptorExhaustionTest). What it still holds is released when the pod's JVM exits.
    }

    /**
     * Waits (at most {@code max}) until a connect to the port is refused: the listening socket is really closed and
     * completes no more handshakes.
     */
    void awaitClosed(Duration max) {
        long end = System.nanoTime() + max.toNanos();
        while (!refused() && System.nanoTime() < end) {
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    synchronized void stop() {
        stopped = true;
        server.stop();
    }

    // Only a refused connect means nothing listens: a connect that cannot even get a descriptor proves nothing.
    private boolean refused() {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(probeHost, port), SELF_CONNECT_TIMEOUT_MS);
            return false;
        } catch (ConnectException e) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
