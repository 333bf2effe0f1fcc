package io.pylon.core.server;

import io.helidon.common.buffers.BufferData;
import io.helidon.common.buffers.DataReader;
import io.helidon.common.buffers.DataWriter;
import io.helidon.common.socket.HelidonSocket;
import io.helidon.common.socket.PeerInfo;
import io.helidon.http.http2.Http2ErrorCode;
import io.helidon.http.http2.Http2Exception;
import io.helidon.webserver.CloseConnectionException;
import io.helidon.webserver.ConnectionContext;
import io.helidon.webserver.ListenerContext;
import io.helidon.webserver.ProxyProtocolData;
import io.helidon.webserver.Router;
import io.helidon.webserver.ServerConnectionException;
import io.helidon.webserver.spi.ServerConnection;
import io.pylon.core.http.ClientDeparture;
import io.pylon.core.http.Http10Connections;
import io.pylon.core.http.Http10Exchanges;
import io.pylon.core.http.ReadBudget;
import org.jspecify.annotations.Nullable;

import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One client connection as the {@link ConnectionTimeouts} sees it: the context Helidon's HTTP/1 connection runs with
 * (its reader notes when a read starts and ends) and the phase of the request on it.
 *
 * <p>When Helidon's connection ends after an answer that closes it, the connection lingers ({@link #linger}): the
 * client may still be sending the request the pod answered without reading (a 413 by the declared length), and
 * closing a socket with unread bytes resets the connection, which destroys the answer the client has not read yet.
 *
 * <p>Threading: the connection's own virtual thread reads and moves the phase; the guard's sweeper thread reads
 * both and may close the socket. Every shared field is volatile; a phase and its start are written together by the
 * connection thread only, and a sweeper reading a stale pair at worst closes one sweep later. The lingering close
 * runs on the connection's thread too; the sweeper ends it by closing what it half-closed (published before the first
 * lingering read starts, which is what the sweeper waits for). On an HTTP/2 connection, requests count themselves in
 * and out from their own threads (an atomic count, a volatile time of the last end, a concurrent map of their
 * {@link ClientDeparture}s, told by the connection's thread when the client resets a stream or the connection ends;
 * the last resets are kept in an array under its own lock, for requests that start after their reset was read),
 * and their writes note each frame in the connection's {@link Http2FrameScan} (published through a volatile field).
 * On an HTTP/1 connection, the request's handler asks for its {@link ClientDeparture} on the connection's thread, and
 * the sweeper may start a watch of the client ({@link #watchClient}): one read ahead, on a thread of its own, while the
 * connection's thread waits on something else. Every read of the socket, the connection thread's and the watch's,
 * holds {@code socketRead}, and takes what the watch read before reading the socket: so the bytes keep their order.
 */
final class GuardedConnection implements ConnectionContext {
    /**
     * Where the connection is. {@code HTTP2}: an HTTP/2 connection, opened with the preface or upgraded by
     * {@code Upgrade: h2c}; it reads frames for all its streams, so its reads are no request phases, and it is idle
     * while no request of it is in flight and the client sent nothing.
     */
    enum Phase { AWAITING_REQUEST, IN_HEADERS, IN_BODY, LINGERING, HTTP2 }

    private static final AtomicLong IDS = new AtomicLong();
    private static final int RESETS_KEPT = 64;

    private final ConnectionContext delegate;
    private final DataReader reader;
    private final TimedWriter timedWriter;
    private final DataWriter writer;
    // set by the connection thread when the first request is HTTP/1.0, read by the same thread's writes
    private boolean http10;
    private volatile Phase phase = Phase.AWAITING_REQUEST;
    // when the pending write to the client started (System.nanoTime), 0 when none is pending
    private volatile long writeStart;
    private final AtomicBoolean goingAway = new AtomicBoolean();
    private final AtomicBoolean cut = new AtomicBoolean();
    // set once the connection is an HTTP/2 one by the connection thread; its streams' writes read it
    private volatile @Nullable Http2FrameScan frames;
    // unique, unlike Helidon's (an identity hash): HTTP/2 requests find their connection by it
    private final String id;
    private final AtomicInteger requestsInFlight = new AtomicInteger();
    // the HTTP/2 requests in flight by stream id, told when their client leaves
    private final Map<Integer, ClientDeparture> departures = new ConcurrentHashMap<>();
    private volatile boolean clientLeft;
    // the last streams the client reset, so that a request whose reset was read before it started (the scan sees a
    // RST_STREAM before Helidon has parsed the HEADERS read with it) departs as it starts; stream 0 is no request's
    private final int[] resets = new int[RESETS_KEPT]; // guarded by itself
    private int resetsNext; // guarded by resets
    private volatile boolean anyReset;
    private volatile boolean upgraded;
    private volatile long lastRequestEnd;
    private volatile long phaseStart = System.nanoTime();
    private volatile long readStart;
    private volatile @Nullable ServerConnection connection;
    private volatile boolean closeRequested;
    private volatile boolean closeAfterResponse;
    // the client ended its side (EOF), a read failed, or the guard closed the socket: nothing to linger for
    private volatile boolean ended;
    // while lingering after a half-close: what really closes the connection (Helidon's close of it may not)
    private volatile @Nullable Closeable halfClosed;
    // the status of the response being sent, noted before its headers are written (connection thread only)
    private int responseStatus;
    // held by every read of the socket: the connection thread's and the client watch's
    private final ReentrantLock socketRead = new ReentrantLock();
    // what the client watch read (bytes, or null for the client's end) or its failure, for the next read to take
    private byte @Nullable [] watchRead; // guarded by socketRead
    private @Nullable RuntimeException watchFailure; // guarded by socketRead
    private volatile boolean watchReadHeld; // written under socketRead
    // the HTTP/1 request in flight's departure, made when its handler asks, and since when; the one last watched
    private volatile @Nullable ClientDeparture requestDeparture;
    private int departureRequestId; // connection thread only
    private volatile long departureSince;
    private volatile @Nullable ClientDeparture watched;

    /**
     * @param readThrough what Helidon reads the guarded bytes through (the HTTP/1.0 rewrite), given what to call when
     *                    the connection turns out to be HTTP/1.0
     */
    GuardedConnection(ConnectionContext delegate, ReadThrough readThrough) {
        this.delegate = delegate;
        this.id = delegate.childSocketId() + "." + Long.toHexString(IDS.incrementAndGet());
        HelidonSocket socket = delegate.serverSocket();
        Http10Exchanges exchanges = Http10Connections.exchanges();
        this.reader = readThrough.reader(DataReader.create(() -> read(socket)), () -> http10 = true, exchanges);
        this.timedWriter = new TimedWriter(delegate.dataWriter());
        this.writer = Http10Connections.writer(timedWriter, () -> http10, exchanges);
    }

    /** How Helidon reads the guarded bytes: the HTTP/1.0 rewrite, sharing {@code exchanges} with the writer. */
    @FunctionalInterface
    interface ReadThrough {
        DataReader reader(DataReader guarded, Runnable onHttp10, Http10Exchanges exchanges);
    }

    /** Whether the connection's first request was HTTP/1.0 (connection thread only). */
    boolean http10() {
        return http10;
    }

    private byte @Nullable [] read(HelidonSocket socket) {
        if (closeAfterResponse && phase == Phase.AWAITING_REQUEST) {
            // RFC 9112 9.6: having answered with Connection: close, the server closes; Helidon would read on
            throw new CloseConnectionException("Answered with Connection: close");
        }
        if (phase == Phase.AWAITING_REQUEST) {
            CarrierYield.beforeAwaitedRead();
        }
        readStart = System.nanoTime();
        try {
            byte[] bytes = readSocket(socket);
            if (bytes == null) {
                ended = true;
            } else {
                ReadBudget.spend(bytes.length);
            }
            if (bytes != null && phase == Phase.AWAITING_REQUEST) {
                enter(Phase.IN_HEADERS);
            }
            Http2FrameScan scan = frames;
            if (scan != null && bytes != null && !scan.scan(bytes)) {
                // Helidon answers this with GOAWAY (this code) and ends the connection
                throw new Http2Exception(Http2ErrorCode.ENHANCE_YOUR_CALM, String.valueOf(scan.refusal()));
            }
            return bytes;
        } catch (UncheckedIOException e) {
            ended = true;
            // what Helidon's own reader does: an I/O failure ends the connection quietly
            throw new ServerConnectionException("Socket read failed", e);
        } finally {
            readStart = 0;
        }
    }

    /**
     * The next bytes from the client, null at its end: what the client watch read, if it did; else the bytes the
     * listener read to tell the protocol; else a read of the socket.
     */
    private byte @Nullable [] readSocket(HelidonSocket socket) {
        socketRead.lock();
        try {
            if (watchReadHeld) {
                watchReadHeld = false;
                byte[] bytes = watchRead;
                RuntimeException failure = watchFailure;
                watchRead = null;
                watchFailure = null;
                if (failure != null) {
                    throw failure;
                }
                return bytes;
            }
            byte[] bytes = pending();
            return bytes != null ? bytes : socket.get();
        } finally {
            socketRead.unlock();
        }
    }

    // Bytes the listener already read to tell HTTP/1 from another protocol (HTTP/2's preface): they come first.
    private byte @Nullable [] pending() {
        DataReader identified = delegate.dataReader();
        int available = identified.available();
        return available == 0 ? null : identified.readBytes(available);
    }

    void enter(Phase next) {
        phaseStart = System.nanoTime();
        phase = next;
    }

    /**
     * The connection is an HTTP/2 one from here on (opened with the preface, or upgraded by the request just read):
     * its frames are followed from the preface on ({@link Http2FrameScan}), including what Helidon's reader holds
     * already. Connection thread only.
     */
    /** The connection now speaks another protocol than HTTP (a WebSocket tunnel): its own close applies. */
    void upgraded() {
        upgraded = true;
    }

    boolean isUpgraded() {
        return upgraded;
    }

    void enterHttp2() {
        Http2FrameScan scan = new Http2FrameScan(this::streamReset);
        int buffered = reader.available();
        if (buffered > 0) {
            byte[] ahead = new byte[buffered];
            reader.getBuffer(buffered).read(ahead);
            scan.scan(ahead);
        }
        frames = scan;
        enter(Phase.HTTP2);
    }

    /**
     * Called once a request's headers are read. A close asked for before is normally carried by the request itself
     * (its headers say Connection: close, so Helidon's answer does too); only when that could not be done is it
     * passed on to Helidon's connection here, which then ends after this answer. Passing it on while the request
     * line is read would interrupt the read and cut a request the client already sent.
     */
    void headersRead(boolean forwardClose) {
        enter(Phase.IN_BODY);
        if (forwardClose) {
            forwardClose();
        }
    }

    /** The request or its answer says {@code Connection: close}: the connection ends once the answer is written. */
    void closeAfterResponse() {
        closeAfterResponse = true;
    }

    /** Notes the status of the response about to be written; its headers follow. Connection thread only. */
    void responseStatus(int status) {
        responseStatus = status;
    }

    int responseStatus() {
        return responseStatus;
    }

    Phase phase() {
        return phase;
    }

    long phaseStart() {
        return phaseStart;
    }

    /**
     * When the pending write to the client started (System.nanoTime), 0 when none is pending: a write waits only while
     * the client does not take what was sent before (its receive window and the socket's buffer are full).
     */
    long writeStart() {
        return writeStart;
    }

    /** When the pending read started (System.nanoTime), 0 when no read is pending. */
    long readStart() {
        return readStart;
    }

    void attach(ServerConnection connection) {
        this.connection = connection;
    }

    boolean closeRequested() {
        return closeRequested;
    }

    /**
     * The server stops (or Helidon found the connection idle). Passing this on at once would end the connection
     * after the request it is handling, whose answer may already have promised keep-alive, and the client's next
     * request would be reset. So the connection ends after the next request whose headers are read from now on, whose
     * answer says Connection: close; or when that answer already said so; or when the guard finds it idle.
     */
    void requestClose() {
        closeRequested = true;
    }

    // GOAWAY, NO_ERROR, last stream 2^31-1: streams the client opened may have been acted on (RFC 9113 section 6.8)
    private static final byte[] GOAWAY = {0, 0, 8, 7, 0, 0, 0, 0, 0, 0x7f, (byte) 0xff, (byte) 0xff, (byte) 0xff,
            0, 0, 0, 0};

    /**
     * Tells an HTTP/2 client that the connection ends, then {@link #abort}s it (once; later calls do nothing): Helidon
     * 4.5.0 sends GOAWAY only once its connection reads a next frame, and a client that sends none would just see the
     * connection drop. Called by the sweeper when no request of the connection is in flight and the client has sent
     * nothing for a while, so that no stream of the connection writes at the same time.
     */
    void goAwayAndAbort() {
        if (!goingAway.compareAndSet(false, true)) {
            return;
        }
        // on a thread of its own: a client that does not read would block the write, and the sweeper with it; such a
        // write is timed as every other (the send timeout then aborts it)
        Thread.ofVirtual().name("pylon-goaway").start(() -> {
            try {
                timedWriter.writeNow(BufferData.create(GOAWAY));
            } catch (RuntimeException e) {
                // the connection is gone already: the abort that follows is all there is to do
            }
            abort();
        });
    }

    void forwardClose() {
        ServerConnection current = connection;
        if (current != null) {
            current.close(false);
        }
    }

    /** {@link #abort()} the first time only: whether this call did it. */
    boolean abortOnce() {
        if (!cut.compareAndSet(false, true)) {
            return false;
        }
        abort();
        return true;
    }

    /** Closes the socket under the connection's thread: its pending read fails and the connection ends. */
    void abort() {
        ended = true;
        Closeable raw = halfClosed;
        try {
            if (raw != null) {
                raw.close();
            } else {
                delegate.serverSocket().close();
            }
        } catch (IOException | RuntimeException e) {
            // already closed by the client or the connection itself
        }
    }

    /**
     * Whether the connection should linger now that Helidon's connection ended: it answered with
     * {@code Connection: close} or was closed by the server (an unread body), and the client has not ended its side.
     */
    boolean lingers(boolean closedByServer) {
        return (closeAfterResponse || closedByServer) && !ended;
    }

    /**
     * The lingering close, on the connection's thread once Helidon is done with it (its answer is written: Helidon
     * writes on the connection's thread): half-closes, then reads and discards until the client ends its side, until
     * {@code maxBytes} were discarded, or until the guard's sweeper closes the socket (the lingering time or timeout).
     * Then closes the connection.
     *
     * @return whether it was cut by the byte bound
     */
    boolean linger(long maxBytes) {
        if (maxBytes == 0) {
            return false;
        }
        enter(Phase.LINGERING);
        HelidonSocket socket = delegate.serverSocket();
        Closeable raw = HalfClose.shutdownOutput(socket);
        halfClosed = raw;
        long discarded = 0;
        try {
            while (discarded <= maxBytes && !ended) {
                readStart = System.nanoTime();
                byte[] bytes = readSocket(socket);
                readStart = 0;
                if (bytes == null) {
                    break;
                }
                discarded += bytes.length;
            }
        } catch (RuntimeException e) {
            // the guard closed the socket (a bound), or the client reset the connection
        } finally {
            readStart = 0;
            ended = true;
            if (raw != null) {
                try {
                    raw.close();
                } catch (IOException e) {
                    // closed by the guard meanwhile
                }
            }
        }
        return discarded > maxBytes;
    }

    @Override
    public DataReader dataReader() {
        return reader;
    }

    @Override
    public ListenerContext listenerContext() {
        return delegate.listenerContext();
    }

    @Override
    public ExecutorService executor() {
        return delegate.executor();
    }

    @Override
    public DataWriter dataWriter() {
        return writer;
    }

    @Override
    public Router router() {
        return delegate.router();
    }

    @Override
    public Optional<ProxyProtocolData> proxyProtocolData() {
        return delegate.proxyProtocolData();
    }

    @Override
    public HelidonSocket serverSocket() {
        return delegate.serverSocket();
    }

    @Override
    public PeerInfo remotePeer() {
        return delegate.remotePeer();
    }

    @Override
    public PeerInfo localPeer() {
        return delegate.localPeer();
    }

    @Override
    public boolean isSecure() {
        return delegate.isSecure();
    }

    @Override
    public String socketId() {
        return delegate.socketId();
    }

    @Override
    public String childSocketId() {
        return id;
    }

    /**
     * The departure of the HTTP/1 request {@code requestId} in flight (the connection's thread, for its handler): made
     * on the first call, departed already when the client's end was read.
     */
    ClientDeparture requestDeparture(int requestId) {
        ClientDeparture departure = requestDeparture;
        if (departure != null && departureRequestId == requestId) {
            return departure;
        }
        departure = new ClientDeparture();
        departureRequestId = requestId;
        departureSince = System.nanoTime();
        requestDeparture = departure;
        if (ended) {
            departure.depart();
        }
        return departure;
    }

    /**
     * Whether the client should be watched now (the sweeper asks while the connection's thread does not read): an
     * HTTP/1 request's handler has waited for {@code afterNanos} on something else to be told when its client
     * leaves, and no watch ran for this request (one read ahead per request: a client that sent more is there).
     */
    boolean watchDue(long now, long afterNanos) {
        ClientDeparture departure = requestDeparture;
        return departure != null && departure != watched && departure.awaited() && !departure.departed()
                && now - departureSince > afterNanos && !watchReadHeld && !ended
                && (phase == Phase.IN_BODY || phase == Phase.AWAITING_REQUEST);
    }

    /**
     * Watches the client for the request in flight (sweeper): reads ahead on a thread of its own, keeps what it read
     * for the connection's next read, and departs the request when the client closed or reset the connection. Gives
     * up when the connection's thread reads at that moment (the next sweep looks again).
     */
    void watchClient() {
        ClientDeparture departure = requestDeparture;
        if (departure == null) {
            return;
        }
        watched = departure;
        Thread.ofVirtual().name("pylon-client-watch").start(() -> watch(departure));
    }

    private void watch(ClientDeparture departure) {
        if (!socketRead.tryLock()) {
            watched = null;
            return;
        }
        try {
            if (watchReadHeld || ended) {
                return;
            }
            try {
                watchRead = delegate.serverSocket().get();
            } catch (RuntimeException e) {
                watchFailure = e;
            }
            watchReadHeld = true;
            if (watchRead == null) {
                ended = true;
                departure.depart();
            }
        } finally {
            socketRead.unlock();
        }
    }

    /** An HTTP/2 request started on stream {@code streamId}: its departure is told when the client resets it. */
    void requestStarted(int streamId) {
        requestsInFlight.incrementAndGet();
        ClientDeparture departure = new ClientDeparture();
        departures.put(streamId, departure);
        // after the put: a reset noted before it is seen here, one noted after it finds the departure
        if (clientLeft || (anyReset && wasReset(streamId))) {
            departure.depart(); // the connection ended, or the stream was reset, while the request was being set up
        }
    }

    private boolean wasReset(int streamId) {
        synchronized (resets) {
            for (int i = 0; i < RESETS_KEPT; i++) {
                if (resets[i] == streamId) {
                    return true;
                }
            }
            return false;
        }
    }

    /**
     * The departure of the request in flight on stream {@code streamId} (already departed when the client left before
     * the handler asked); null once the request ended.
     */
    @Nullable ClientDeparture departure(int streamId) {
        return departures.get(streamId);
    }

    void requestEnded(int streamId) {
        departures.remove(streamId);
        lastRequestEnd = System.nanoTime();
        requestsInFlight.decrementAndGet();
    }

    /**
     * The client reset an HTTP/2 stream (connection thread). The departure stays until its request ends, so that a
     * handler that looks for it only now still finds it, departed; a request that starts only now finds the reset
     * among the last {@value #RESETS_KEPT} noted.
     */
    private void streamReset(int streamId) {
        synchronized (resets) {
            resets[resetsNext] = streamId;
            resetsNext = (resetsNext + 1) % RESETS_KEPT;
        }
        anyReset = true;
        ClientDeparture departure = departures.get(streamId);
        if (departure != null) {
            departure.depart();
        }
    }

    /** The connection ended: every request still in flight on it lost its client (each removes its own on ending). */
    void clientLeft() {
        clientLeft = true;
        for (ClientDeparture departure : departures.values()) {
            departure.depart();
        }
    }

    /**
     * Since when an HTTP/2 client has left something other than a request body unfinished (see
     * {@link Http2FrameScan#unfinishedSince}), 0 when it has not or the connection is not an HTTP/2 one.
     */
    long http2UnfinishedSince() {
        Http2FrameScan scan = frames;
        return scan == null ? 0 : scan.unfinishedSince();
    }

    /** Requests of this connection being handled now (counted on HTTP/2 connections only). */
    int requestsInFlight() {
        return requestsInFlight.get();
    }

    /** When the last request of this connection ended (System.nanoTime), 0 before any. */
    long lastRequestEnd() {
        return lastRequestEnd;
    }

    /** Notes when each write to the client starts and ends ({@link #writeStart()}). */
    private final class TimedWriter implements DataWriter {
        private final DataWriter socket;

        TimedWriter(DataWriter socket) {
            this.socket = socket;
        }

        @Override
        public void write(BufferData... buffers) {
            writeStart = System.nanoTime();
            try {
                socket.write(buffers);
            } finally {
                writeStart = 0;
            }
        }

        @Override
        public void write(BufferData buffer) {
            writeStart = System.nanoTime();
            try {
                socket.write(buffer);
            } finally {
                writeStart = 0;
            }
        }

        @Override
        public void writeNow(BufferData... buffers) {
            writeStart = System.nanoTime();
            try {
                socket.writeNow(buffers);
            } finally {
                writeStart = 0;
            }
        }

        @Override
        public void writeNow(BufferData buffer) {
            Http2FrameScan scan = frames;
            BufferData frame = scan == null ? buffer : scan.written(buffer);
            writeStart = System.nanoTime();
            try {
                socket.writeNow(frame);
            } finally {
                writeStart = 0;
            }
        }

        @Override
        public void flush() {
            socket.flush();
        }

        @Override
        public void close() {
            socket.close();
        }
    }
}
