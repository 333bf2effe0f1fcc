package io.pylon.core.server;

import io.helidon.common.buffers.BufferData;
import io.helidon.common.socket.SocketOptions;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.Headers;
import io.helidon.http.HttpPrologue;
import io.helidon.http.WritableHeaders;
import io.helidon.http.Status;
import io.helidon.webserver.CloseConnectionException;
import io.helidon.webserver.ConnectionContext;
import io.helidon.webserver.ServerConnectionException;
import io.helidon.webserver.http1.Http1Config;
import io.helidon.webserver.http1.Http1ConnectionListener;
import io.helidon.webserver.http1.Http1ConnectionSelector;
import io.helidon.webserver.http1.spi.Http1Upgrader;
import io.helidon.webserver.spi.ServerConnection;
import io.pylon.core.http.BodyReadWatch;
import io.pylon.core.http.ConnectionClose;
import io.pylon.core.http.Http10Connections;
import io.pylon.core.http.Refusals;
import io.pylon.core.server.GuardedConnection.Phase;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Closes the connections of clients that hold the pod without using it: idle between requests longer than the idle
 * timeout, taking longer than the header timeout from a request's first byte to the end of its headers, or leaving a
 * body read waiting longer than the body timeout. On stop it lets requests already on their way finish instead of
 * cutting connections that wait for them. It also bounds the lingering close that follows an answer ending the
 * connection ({@link GuardedConnection#linger}): the lingering time in all, the lingering timeout between reads. And
 * it starts the read ahead that tells a handler waiting on an upstream that its HTTP/1 client left
 * ({@link GuardedConnection#watchClient}).
 *
 * <p>Helidon's own idle timeout only interrupts a connection while it reads a request line, and its socket reads have
 * no timeout, so the guard wraps Helidon's HTTP/1 connection: it is the only connection selector of the listener
 * (another would make Helidon read from a connection before registering it), sees every read through
 * {@link GuardedConnection}, and learns the request phases from Helidon's HTTP/1 listeners.
 *
 * <p>Threading: connections add and remove themselves in concurrent sets from their virtual threads (a lingering
 * connection stays registered until its lingering close ends, on its own thread); one sweep runs at a time on the
 * given scheduler (fixed delay) and only reads connection state, closes sockets or starts a connection's client
 * watch (on a thread of its own); the counters are atomic. The wait
 * before the first close of a stop runs under {@code closeLock}, so every close Helidon asks for comes after it.
 */
final class ConnectionTimeouts implements AutoCloseable {
    /** How often connections are checked: the precision of every timeout. */
    static final Duration SWEEP_PERIOD = Duration.ofMillis(250);
    /** While stopping, how long a connection may wait for a request before it is closed. */
    static final Duration DRAIN_IDLE = Duration.ofSeconds(2);

    private final ConnectionLimits limits;
    private final BodyReadWatch bodyReads;
    private final Http2Connections http2;
    private final RequestDepartures departures;
    private final Refusals refusals;
    private final Set<GuardedConnection> connections = ConcurrentHashMap.newKeySet();
    private final AcceptedConnections accepted = new AcceptedConnections();
    // connections of the listener's other protocols (HTTP/2): counted and asked to close on stop, no HTTP/1 phases
    private final Set<ServerConnection> others = ConcurrentHashMap.newKeySet();
    private final AtomicLong closedIdle = new AtomicLong();
    private final AtomicLong closedHeaders = new AtomicLong();
    private final AtomicLong closedBody = new AtomicLong();
    private final AtomicLong closedSend = new AtomicLong();
    private final AtomicLong lingeringCut = new AtomicLong();
    private final ScheduledFuture<?> sweeper;
    private volatile boolean draining;
    private volatile boolean stopping;
    private volatile long lastOpened = System.nanoTime();
    private final Object closeLock = new Object();
    private @Nullable Runnable untilListenerClosed; // guarded by closeLock

    /**
     * @param bodyReads  the body reads bounded per request (HTTP/2 streams), swept with the connections
     * @param http2      where HTTP/2 connections are registered, for their requests to count themselves in and out
     * @param departures where HTTP/1 connections are registered, for their requests' handlers to find them
     */
    ConnectionTimeouts(ConnectionLimits limits, ScheduledExecutorService scheduler, BodyReadWatch bodyReads,
                       Http2Connections http2, RequestDepartures departures, Refusals refusals) {
        this.limits = limits;
        this.bodyReads = bodyReads;
        this.http2 = http2;
        this.departures = departures;
        this.refusals = refusals;
        long period = SWEEP_PERIOD.toMillis();
        this.sweeper = scheduler.scheduleWithFixedDelay(this::sweep, period, period, TimeUnit.MILLISECONDS);
    }

    private static final byte[] HTTP2_PREFACE = "PRI * HTTP/2.0\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    /**
     * The accepted sockets' options: {@code options}, and when Helidon may hold a connection before a protocol takes
     * it ({@code heldBeforeSelection}: TLS, or more than one protocol), each accepted socket noted until one does
     * ({@link AcceptedConnections}): one still waiting after the idle timeout is closed.
     */
    SocketOptions connectionOptions(SocketOptions options, boolean heldBeforeSelection) {
        return heldBeforeSelection ? new WatchedSocketOptions(options, accepted::accepted) : options;
    }

    /** Adds the guard's listeners to the HTTP/1 configuration. */
    Http1Config.Builder listenTo(Http1Config.Builder http1) {
        return http1.addReceiveListener(new RequestListener()).addSendListener(new ResponseListener(refusals));
    }

    /**
     * The listener's HTTP/1 connection selector: Helidon's, with the module's upgrades (and only those: none is
     * discovered from the class path), wrapped.
     */
    io.helidon.webserver.spi.ServerConnectionSelector selector(Http1Config http1,
                                                               java.util.Map<String, Http1Upgrader> upgraders) {
        java.util.Map<String, Http1Upgrader> marking = new java.util.LinkedHashMap<>();
        upgraders.forEach((protocol, upgrader) -> marking.put(protocol,
                new MarkedUpgrade(upgrader, protocol.equals("h2c") ? this::enteredHttp2 : GuardedConnection::upgraded)));
        var plain = Http1ConnectionSelector.builder().config(http1).upgraders(marking).build();
        return new io.helidon.webserver.spi.ServerConnectionSelector() {
            @Override
            public int bytesToIdentifyConnection() {
                return plain.bytesToIdentifyConnection();
            }

            /**
             * HTTP/1 is the fallback: Helidon's selector claims only request lines ending in HTTP/1.1, and with another
             * protocol on the listener (HTTP/2) an HTTP/1.0 request or a malformed request line would match no
             * selector and see its connection closed without a word; here they get the HTTP/1.0 rewrite or a 400.
             * Only the HTTP/2 connection preface is left to the other selectors.
             */
            @Override
            public Support supports(BufferData data) {
                Support support = plain.supports(data);
                if (support != Support.UNSUPPORTED) {
                    return support;
                }
                data.rewind(); // Helidon's selector read the request line
                int n = Math.min(data.available(), HTTP2_PREFACE.length);
                for (int i = 0; i < n; i++) {
                    if (data.get(i) != HTTP2_PREFACE[i]) {
                        return Support.SUPPORTED;
                    }
                }
                return n < HTTP2_PREFACE.length ? Support.UNKNOWN : Support.UNSUPPORTED;
            }

            @Override
            public Set<String> supportedApplicationProtocols() {
                return plain.supportedApplicationProtocols();
            }

            @Override
            public ServerConnection connection(ConnectionContext ctx) {
                GuardedConnection guarded = new GuardedConnection(ctx,
                        (reader, onHttp10, exchanges) -> Http10Connections.reader(reader, ctx, http1, onHttp10,
                                exchanges));
                ServerConnection connection = plain.connection(guarded);
                guarded.attach(connection);
                return new Tracked(guarded, connection);
            }
        };
    }

    /**
     * The HTTP/2 selector (prior knowledge or ALPN), its connections counted with the HTTP/1 ones: in {@link #open()},
     * in the pod's stop, and asked to close gracefully when the server stops (GOAWAY). The connection-wide body timeout
     * stays HTTP/1's: Helidon's HTTP/2 connection reads frames, not request phases, and a stream may rightly stay quiet
     * (a server-sent event stream). The header timeout bounds a header block or another frame than DATA left
     * unfinished ({@link Http2FrameScan#unfinishedSince}). The idle timeout applies once no request of the connection
     * is in flight ({@link Http2Connections}); each stream's body reads are bounded on their own.
     */
    io.helidon.webserver.spi.ServerConnectionSelector tracked(io.helidon.webserver.spi.ServerConnectionSelector other) {
        return new io.helidon.webserver.spi.ServerConnectionSelector() {
            @Override
            public int bytesToIdentifyConnection() {
                return other.bytesToIdentifyConnection();
            }

            @Override
            public Support supports(BufferData data) {
                return other.supports(data);
            }

            @Override
            public Set<String> supportedApplicationProtocols() {
                return other.supportedApplicationProtocols();
            }

            @Override
            public ServerConnection connection(ConnectionContext ctx) {
                // its reads timed as an HTTP/1 connection's are; the HTTP/1.0 rewrite does not apply
                GuardedConnection guarded = new GuardedConnection(ctx, (reader, onHttp10, exchanges) -> reader);
                guarded.enterHttp2();
                ServerConnection connection = other.connection(guarded);
                guarded.attach(connection);
                return new TrackedOther(connection, guarded);
            }
        };
    }

    /** Connections open now, of every protocol, and those no protocol took yet. */
    int open() {
        return connections.size() + others.size() + accepted.open();
    }

    /**
     * The server stops: a connection no protocol took yet is closed once it waited {@link #DRAIN_IDLE} since it was
     * accepted, and one still sending a request's headers once they took that long. Helidon's stop waits up to the
     * shutdown grace for every connection's handler, and it cannot ask these to close: one silent or slow client would
     * hold the pod's stop for the whole grace.
     */
    void stopping() {
        stopping = true;
    }

    /** While on, connections waiting for a request are closed once they waited {@link #DRAIN_IDLE}. */
    void drain(boolean on) {
        draining = on;
    }

    /**
     * Waits until no connection has opened for {@code quiet} and none waits in the accept queue of {@code port} (at
     * most {@code max}). Closing the listening socket resets connections the kernel accepted but the server did not
     * yet: closing it while no client is connecting keeps requests from being cut. The queue is checked too because
     * a loaded pod may take longer than {@code quiet} to accept what clients opened.
     */
    void awaitQuiet(Duration quiet, Duration max, int port) throws InterruptedException {
        long end = System.nanoTime() + max.toNanos();
        while (System.nanoTime() < end
                && (System.nanoTime() - lastOpened < quiet.toNanos() || AcceptQueue.length(port) > 0)) {
            Thread.sleep(10);
        }
    }

    /**
     * The server is about to stop: the first connection it asks to close first runs {@code untilListenerClosed}.
     * Helidon asks connections to close right after closing its listening socket, but the JDK defers that close
     * while the accept thread is blocked in the socket, so the socket may still complete handshakes for a moment;
     * clients told Connection: close before it is really closed would reconnect into an accept queue about to be
     * reset.
     */
    void beforeAskingToClose(Runnable untilListenerClosed) {
        synchronized (closeLock) {
            this.untilListenerClosed = untilListenerClosed;
        }
    }

    private void awaitListenerClosed() {
        synchronized (closeLock) {
            if (untilListenerClosed != null) {
                untilListenerClosed.run();
                untilListenerClosed = null;
            }
        }
    }

    /**
     * Connections closed by each timeout since start: idle, headers, body; then lingering closes cut by a bound
     * (time, timeout or bytes); then writes the client did not take within the send timeout.
     */
    long[] closedByTimeout() {
        return new long[]{closedIdle.get(), closedHeaders.get(), closedBody.get(), lingeringCut.get(), closedSend.get()};
    }

    /** Connections in a lingering close now. */
    int lingering() {
        int n = 0;
        for (GuardedConnection c : connections) {
            if (c.phase() == Phase.LINGERING) {
                n++;
            }
        }
        return n;
    }

    private void sweep() {
        long now = System.nanoTime();
        bodyReads.sweep(now);
        // a connection no protocol took yet waits for its first bytes or its TLS handshake: idle, as nginx's
        // client_header_timeout bounds both
        closedIdle.addAndGet(accepted.closeWaitingLongerThan(
                (draining || stopping ? DRAIN_IDLE : limits.idleTimeout()).toNanos(), now));
        for (GuardedConnection c : http2.all()) {
            // an HTTP/2 connection reads frames for every stream, and a silent client may be waiting for an answer:
            // idle is no request in flight and nothing from the client since the last one ended. Its streams'
            // body reads are bounded one by one (BodyReadWatch)
            if (sendTimedOut(c, now)) {
                continue;
            }
            long unfinished = c.http2UnfinishedSince();
            if (unfinished != 0 && now - unfinished > limits.headerTimeout().toNanos()) {
                // a header block (or a frame other than DATA) left unfinished: the client holds the connection and
                // maybe Helidon's partial header block. Closed outright, as nginx does: a GOAWAY now could land
                // inside a frame another stream is writing
                if (c.abortOnce()) {
                    closedHeaders.incrementAndGet();
                }
                continue;
            }
            long readStart = c.readStart();
            if (readStart == 0 || c.requestsInFlight() > 0) {
                continue;
            }
            long quiet = now - Math.max(readStart, c.lastRequestEnd());
            if (quiet > limits.idleTimeout().toNanos()) {
                closedIdle.incrementAndGet();
                c.goAwayAndAbort();
            } else if ((draining || c.closeRequested()) && quiet > DRAIN_IDLE.toNanos()) {
                c.goAwayAndAbort();
            }
        }
        for (GuardedConnection c : connections) {
            // an upgraded HTTP/2 connection's writes: in the loop above
            if (c.phase() != Phase.HTTP2 && sendTimedOut(c, now)) {
                continue;
            }
            long readStart = c.readStart();
            if (readStart == 0) {
                // working on a request or writing: not waiting for the client. A handler waiting on something else
                // for a sweep already gets the client watched, to learn at once when it leaves
                if (c.watchDue(now, SWEEP_PERIOD.toNanos())) {
                    c.watchClient();
                }
                continue;
            }
            long inPhase = now - c.phaseStart();
            switch (c.phase()) {
                case AWAITING_REQUEST -> {
                    if (inPhase > limits.idleTimeout().toNanos()) {
                        closedIdle.incrementAndGet();
                        c.abort();
                    } else if ((draining || c.closeRequested()) && inPhase > DRAIN_IDLE.toNanos()) {
                        c.abort();
                    }
                }
                case IN_HEADERS -> {
                    if (inPhase > limits.headerTimeout().toNanos()) {
                        closedHeaders.incrementAndGet();
                        c.abort();
                    } else if (stopping && inPhase > DRAIN_IDLE.toNanos()) {
                        // no handler has it yet, so nothing is lost; left alone it would hold the stop for the grace
                        c.abort();
                    }
                }
                case IN_BODY -> {
                    if (now - readStart > limits.bodyTimeout().toNanos()) {
                        closedBody.incrementAndGet();
                        c.abort();
                    }
                }
                case HTTP2 -> {
                    // below, with the connections opened as HTTP/2
                }
                case LINGERING -> {
                    if (inPhase > limits.lingeringTime().toNanos()
                            || now - readStart > limits.lingeringTimeout().toNanos()) {
                        lingeringCut.incrementAndGet();
                        c.abort();
                    }
                }
            }
        }
    }

    // a write the client has not let finish for the send timeout: the client does not read (nginx send_timeout)
    private boolean sendTimedOut(GuardedConnection c, long now) {
        long writeStart = c.writeStart();
        if (writeStart == 0 || now - writeStart <= limits.sendTimeout().toNanos()) {
            return false;
        }
        if (c.abortOnce()) {
            closedSend.incrementAndGet();
        }
        return true;
    }

    @Override
    public void close() {
        sweeper.cancel(false);
    }

    /** What Helidon's listener holds: registers the connection while it runs, defers a graceful close. */
    private final class Tracked implements ServerConnection {
        private final GuardedConnection guarded;
        private final ServerConnection delegate;
        private volatile boolean hardClosed;

        Tracked(GuardedConnection guarded, ServerConnection delegate) {
            this.guarded = guarded;
            this.delegate = delegate;
        }

        /**
         * Runs Helidon's connection, then its lingering close when it ended by the server's decision (an answer
         * with Connection: close, or a close thrown for an unread body), still registered so that the sweeper bounds
         * it. Not after a hard close (the server's stop ran out of grace), nor when the client's side ended.
         */
        @Override
        public void handle(io.helidon.common.concurrency.limits.Limit limit) throws InterruptedException {
            lastOpened = System.nanoTime();
            accepted.taken(guarded.serverSocket());
            connections.add(guarded);
            departures.add(guarded);
            boolean closedByServer = false;
            try {
                delegate.handle(limit);
            } catch (ServerConnectionException e) {
                throw e; // the socket failed: a write to a client that went away
            } catch (CloseConnectionException e) {
                closedByServer = true;
                throw e;
            } finally {
                try {
                    if (!hardClosed && guarded.lingers(closedByServer) && guarded.linger(limits.lingeringBytes())) {
                        lingeringCut.incrementAndGet();
                    }
                } finally {
                    connections.remove(guarded);
                    departures.remove(guarded);
                    http2.remove(guarded);
                }
            }
        }

        @Override
        public Duration idleTime() {
            return delegate.idleTime();
        }

        @Override
        public void close(boolean interrupt) {
            if (interrupt) {
                hardClosed = true;
                delegate.close(true);
            } else if (guarded.isUpgraded()) {
                awaitListenerClosed();
                delegate.close(false); // a WebSocket tunnel: Helidon hands the graceful close to it
            } else {
                awaitListenerClosed();
                guarded.requestClose(); // an HTTP/2 one: the sweep ends it with GOAWAY once no request is in flight
            }
        }
    }

    /** A connection of another protocol, registered while it runs. */
    private final class TrackedOther implements ServerConnection {
        private final ServerConnection delegate;
        private final GuardedConnection guarded;

        TrackedOther(ServerConnection delegate, GuardedConnection guarded) {
            this.delegate = delegate;
            this.guarded = guarded;
        }

        @Override
        public void handle(io.helidon.common.concurrency.limits.Limit limit) throws InterruptedException {
            lastOpened = System.nanoTime();
            accepted.taken(guarded.serverSocket());
            others.add(this);
            http2.add(guarded);
            try {
                delegate.handle(limit);
            } finally {
                http2.remove(guarded);
                others.remove(this);
            }
        }

        @Override
        public Duration idleTime() {
            return delegate.idleTime();
        }

        /**
         * A graceful close is the sweep's: GOAWAY once no request of the connection is in flight. Helidon's own would
         * interrupt an idle connection's read, which closes the socket without a GOAWAY.
         */
        @Override
        public void close(boolean interrupt) {
            if (interrupt) {
                delegate.close(true);
            } else {
                awaitListenerClosed();
                guarded.requestClose();
            }
        }
    }

    /** The h2c upgrade took the connection over: it is an HTTP/2 one, out of the HTTP/1 phases. */
    private void enteredHttp2(GuardedConnection c) {
        c.enterHttp2();
        http2.add(c); // removed when its Tracked connection ends
    }

    /**
     * An upgrade that marks the connection it took over: h2c as HTTP/2, another (WebSocket) as upgraded, whose
     * graceful close on the server's stop is then the protocol's.
     */
    private static final class MarkedUpgrade implements Http1Upgrader {
        private final Http1Upgrader upgrader;
        private final java.util.function.Consumer<GuardedConnection> mark;

        MarkedUpgrade(Http1Upgrader upgrader, java.util.function.Consumer<GuardedConnection> mark) {
            this.upgrader = upgrader;
            this.mark = mark;
        }

        @Override
        public String supportedProtocol() {
            return upgrader.supportedProtocol();
        }

        @Override
        public @Nullable ServerConnection upgrade(ConnectionContext ctx, HttpPrologue prologue,
                                                  WritableHeaders<?> headers) {
            ServerConnection upgraded = upgrader.upgrade(ctx, prologue, headers);
            if (upgraded != null && ctx instanceof GuardedConnection c) {
                mark.accept(c);
            }
            return upgraded;
        }
    }

    private static final class RequestListener implements Http1ConnectionListener {
        @Override
        public void prologue(ConnectionContext ctx, HttpPrologue prologue) {
            if (ctx instanceof GuardedConnection c && c.phase() == Phase.AWAITING_REQUEST) {
                c.enter(Phase.IN_HEADERS);
            }
        }

        @Override
        public void headers(ConnectionContext ctx, Headers headers) {
            if (ctx instanceof GuardedConnection c) {
                // read once: a close asked for after this point applies to the next request, never to this one,
                // whose answer must then say keep-alive truthfully
                boolean last = c.closeRequested();
                boolean marked = last && headers instanceof WritableHeaders<?>;
                if (marked) {
                    // as if the client had sent Connection: close: Helidon answers with it and then ends the connection
                    ((WritableHeaders<?>) headers).set(HeaderValues.CONNECTION_CLOSE);
                }
                if (ConnectionClose.in(headers)) {
                    c.closeAfterResponse();
                }
                c.headersRead(last && !marked);
            }
        }
    }

    /**
     * An HTTP/1.0 client that asked for keep-alive (its request reached Helidon without {@code Connection: close}):
     * a sized answer (or one without a body) says {@code Connection: keep-alive}, as HTTP/1.0 needs to keep the
     * connection, and nginx does; an unsized one cannot be framed for HTTP/1.0, so it says {@code Connection: close}
     * and its end is the close.
     */
    private static void keepHttp10(WritableHeaders<?> headers, int status) {
        boolean sized = headers.contains(HeaderNames.CONTENT_LENGTH) && !headers.contains(HeaderNames.TRANSFER_ENCODING);
        headers.set(sized || status == 204 || status == 304 ? HeaderValues.CONNECTION_KEEP_ALIVE
                : HeaderValues.CONNECTION_CLOSE);
    }

    /**
     * Notes that a response is under way (and whether it closes the connection), and takes out the
     * {@code Content-Length: 0} Helidon 4.5 puts on every 204 and 304: RFC 9110 forbids it on a 204, and on a 304 it
     * would claim the representation is empty. The headers are written right after this listener sees them.
     */
    private static final class ResponseListener implements Http1ConnectionListener {
        private final Refusals refusals;

        ResponseListener(Refusals refusals) {
            this.refusals = refusals;
        }

        /** An answer of the listener's own is written in one piece: its refusal is told with its size. */
        @Override
        public void data(ConnectionContext ctx, BufferData data) {
            if (ctx instanceof GuardedConnection c && c.responseStatus() >= 400) {
                refusals.written(ctx.remotePeer(), data.available());
            }
        }

        @Override
        public void status(ConnectionContext ctx, Status status) {
            if (ctx instanceof GuardedConnection c) {
                c.enter(Phase.AWAITING_REQUEST);
                c.responseStatus(status.code());
            }
        }

        @Override
        public void headers(ConnectionContext ctx, Headers headers) {
            if (ctx instanceof GuardedConnection c) {
                int status = c.responseStatus();
                if (c.http10() && status >= 200 && headers instanceof WritableHeaders<?> writable
                        && !ConnectionClose.in(headers)) {
                    keepHttp10(writable, status);
                }
                if (ConnectionClose.in(headers)) {
                    c.closeAfterResponse();
                }
                if ((status == 204 || status == 304) && headers instanceof WritableHeaders<?> writable
                        && "0".equals(writable.first(HeaderNames.CONTENT_LENGTH).orElse(null))) {
                    writable.remove(HeaderNames.CONTENT_LENGTH);
                }
            }
        }
    }
}
