package io.pylon.core.server;

import io.helidon.webserver.WebServer;
import io.pylon.core.http.ListenerProbe;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.function.IntFunction;

/**
 * The pod's HTTP listener, watched with a real request and restarted when it dies. Helidon 4.5's listener stops for
 * good when accept fails (e.g. {@code Too many open files}) while {@link WebServer#isRunning()} still says true; a
 * refused connect is what tells. A connect alone cannot tell a hung acceptor or a connection path that closes every
 * connection from a live listener (the kernel completes the handshake into the backlog), so the watch sends a tiny
 * request (the version endpoint) and wants an answer: without one liveness turns DOWN. The first watch runs before
 * the pod takes traffic, so that the classes of the connection path are loaded while descriptors are free (a class
 * that fails to load under descriptor exhaustion fails for good: every connection was closed unanswered).
 *
 * <p>Threading: {@link #check()} runs on one maintenance thread, {@link #stop()} on the shutdown thread; the server
 * reference is volatile and replaced under this object's lock, which {@link #stop()} also takes.
 */
final class PodListener {
    private static final System.Logger LOG = System.getLogger(PodListener.class.getName());
    private static final int SELF_CONNECT_TIMEOUT_MS = 1000;
    private static final int PROBE_ANSWER_TIMEOUT_MS = 3000;
    /** How long probes must go unanswered before liveness turns DOWN: one slow answer on a starved CPU is not it. */
    static final Duration SILENCE_BEFORE_DOWN = Duration.ofSeconds(10);

    private enum Probe { ANSWERED, REFUSED, SILENT, UNKNOWN }

    private final IntFunction<WebServer> servers;
    private final javax.net.SocketFactory sockets; // TLS sockets when the listener is TLS
    private final String probeHost;
    private final int port;
    private final byte[] probeRequest;
    private volatile WebServer server;
    private volatile boolean accepting = true;
    private volatile boolean stopped;
    private volatile int restarts;
    private long silentSince; // System.nanoTime() of the first unanswered probe in a row, 0 after an answer; check() only

    /** @param probePath a cheap GET endpoint of the pod, asked on every watch */
    PodListener(WebServer started, IntFunction<WebServer> servers, String bind, String probePath,
                javax.net.SocketFactory sockets) {
        this.sockets = sockets;
        this.server = started;
        this.servers = servers;
        this.port = started.port();
        this.probeHost = bind.equals("0.0.0.0") || bind.equals("::") || bind.equals("[::]") ? "127.0.0.1" : bind;
        this.probeRequest = ("GET " + probePath + " HTTP/1.1\r\nHost: pod\r\n" + ListenerProbe.HEADER.defaultCase()
                + ": 1\r\n"
                + "Connection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
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

    /**
     * Sends the probe request: answered, the listener is live; refused, it is restarted; accepted but not answered
     * (closed, or silent for {@value #PROBE_ANSWER_TIMEOUT_MS} ms) by every probe for {@link #SILENCE_BEFORE_DOWN},
     * liveness turns DOWN until an answer comes.
     */
    synchronized void check() {
        if (stopped) {
            return;
        }
        Probe probe = probe();
        if (probe == Probe.UNKNOWN) {
            return;
        }
        if (probe == Probe.ANSWERED) {
            silentSince = 0;
            accepting = true;
            return;
        }
        if (probe == Probe.SILENT) {
            long now = System.nanoTime();
            if (silentSince == 0) {
                silentSince = now;
            } else if (accepting && now - silentSince >= SILENCE_BEFORE_DOWN.toNanos()) {
                accepting = false;
                LOG.log(Level.WARNING, "The listener on port " + port + " accepted connections but answered none for "
                        + SILENCE_BEFORE_DOWN.toSeconds() + " s; liveness is DOWN until it answers");
            }
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
    private Probe probe() {
        try (Socket socket = sockets.createSocket()) {
            try {
                socket.connect(new InetSocketAddress(probeHost, port), SELF_CONNECT_TIMEOUT_MS);
            } catch (SocketTimeoutException e) {
                return Probe.UNKNOWN; // a full backlog (the connection cap holds): Kubernetes' probe decides
            }
            socket.setSoTimeout(PROBE_ANSWER_TIMEOUT_MS);
            socket.getOutputStream().write(probeRequest);
            byte[] start = socket.getInputStream().readNBytes(9);
            return new String(start, StandardCharsets.US_ASCII).startsWith("HTTP/1.") ? Probe.ANSWERED : Probe.SILENT;
        } catch (ConnectException e) {
            return Probe.REFUSED;
        } catch (SocketTimeoutException e) {
            return Probe.SILENT;
        } catch (SocketException e) {
            // reset by the pod: accepted, then closed unanswered; anything else local (no descriptor) proves nothing
            return e.getMessage() != null && e.getMessage().contains("reset") ? Probe.SILENT : Probe.UNKNOWN;
        } catch (IOException e) {
            return Probe.UNKNOWN;
        }
    }

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
