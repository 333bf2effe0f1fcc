package io.pylon.worker.proxy;

import io.helidon.common.buffers.DataReader;
import io.helidon.common.concurrency.limits.Limit;
import org.jspecify.annotations.Nullable;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * A plain WebSocket tunnel (no TLS at either end), relayed by the pod's selector ({@link WebSocketRelay}): bytes pass
 * both ways as they come, never re-framed (frames, pings, close frames and their codes pass as the two ends wrote
 * them). When the client's side ends, the upstream's output is shut (it sees the end and finishes its close
 * handshake) and the upstream gets {@value #UPSTREAM_CLOSE_SECONDS} s to end its side; when the upstream's side ends,
 * or either fails, or the tunnel was idle too long, both sockets are closed. Bytes an end has sent are written to the
 * other before its end is passed on. When the server stops (its graceful close), each end gets a close frame
 * {@code 1001 Going Away} once what it is being sent reaches a frame's end ({@link FrameBoundary}); after both went,
 * the ends get {@value WebSocketTunnel#GOING_AWAY_MILLIS} ms to read them, then both sockets close.
 *
 * <p>The connection's own thread (Helidon's) writes on what was read with the handshake, hands both channels to the
 * selector and then only waits in {@link #handle} for the tunnel to end, as Helidon closes the connection when it
 * returns: one parked virtual thread per tunnel, no buffer.
 *
 * <p>Threading: the selector thread alone reads, writes and changes interest ({@link Side}) once it has the channels;
 * {@code lastActivity}, {@code clientEnded}, {@code goingAway}, {@code saidGoingAway} and {@code waiting} are volatile
 * and {@code closed} atomic, as the selector, the idle sweep and the server's shutdown end tunnels from their own
 * threads and unpark the waiting one. Each side's frame boundary and close-sent flag are the selector thread's alone.
 */
final class RelayedWebSocketTunnel implements WebSocketTunnel {
    private static final long UPSTREAM_CLOSE_SECONDS = 5;
    /** Reads in a row from one end before the selector turns to other tunnels. */
    private static final int READS_PER_TURN = 4;

    private final SocketChannel client;
    private final DataReader clientPending;
    private final SocketChannel upstream;
    private final byte[] upstreamLeftover;
    private final WebSocketTunnels tunnels;
    private final WebSocketRelay relay;
    private final Side fromClient;
    private final Side fromUpstream;
    private volatile boolean clientEnded;
    private volatile boolean goingAway;
    private volatile boolean saidGoingAway;
    private volatile @Nullable Thread waiting;
    private final AtomicBoolean closed = new AtomicBoolean();
    private volatile long lastActivity = System.nanoTime();

    /**
     * @param clientPending    the client connection's reader: bytes sent right behind the upgrade request
     * @param upstreamLeftover bytes the upstream sent right after its 101, already read with the handshake
     */
    RelayedWebSocketTunnel(SocketChannel client, DataReader clientPending, SocketChannel upstream,
                           byte[] upstreamLeftover, WebSocketTunnels tunnels, WebSocketRelay relay) {
        this.client = client;
        this.clientPending = clientPending;
        this.upstream = upstream;
        this.upstreamLeftover = upstreamLeftover;
        this.tunnels = tunnels;
        this.relay = relay;
        this.fromClient = new Side(client, true);
        this.fromUpstream = new Side(upstream, false);
    }

    @Override
    public long lastActivity() {
        return lastActivity;
    }

    @Override
    public void handle(Limit limit) throws InterruptedException {
        tunnels.add(this);
        waiting = Thread.currentThread();
        try {
            start();
            while (!clientEnded && !closed.get() && !saidGoingAway) {
                LockSupport.park(this); // not a latch: a shallower stack to keep while parked (see WebSocketUpgrader)
                stopIfInterrupted();
            }
            if (saidGoingAway) {
                LockSupport.parkNanos(this, TimeUnit.MILLISECONDS.toNanos(GOING_AWAY_MILLIS));
                return;
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(UPSTREAM_CLOSE_SECONDS);
            while (!closed.get() && deadline - System.nanoTime() > 0) { // the upstream's close handshake
                LockSupport.parkNanos(this, deadline - System.nanoTime());
                stopIfInterrupted();
            }
        } catch (IOException | RuntimeException e) {
            // either end failed before the relay took the tunnel: closed below
        } finally {
            close(true);
            tunnels.remove(this);
        }
    }

    /** What was read with the handshake goes on in blocking mode; then the selector takes both channels. */
    private void start() throws IOException {
        int available = clientPending.available();
        if (available > 0) {
            writeFully(upstream, clientPending.readBytes(available));
            tunnels.bytesFromClients.add(available);
        }
        if (upstreamLeftover.length > 0) {
            writeFully(client, upstreamLeftover);
            tunnels.bytesFromUpstreams.add(upstreamLeftover.length);
        }
        client.configureBlocking(false);
        upstream.configureBlocking(false);
        relay.add(this);
    }

    private static void writeFully(SocketChannel channel, byte[] bytes) throws IOException {
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        while (buffer.hasRemaining()) {
            channel.write(buffer);
        }
    }

    /** On the selector thread: both channels read from now on. */
    void register(Selector selector) {
        try {
            fromClient.key = client.register(selector, SelectionKey.OP_READ, fromClient);
            fromUpstream.key = upstream.register(selector, SelectionKey.OP_READ, fromUpstream);
            if (goingAway) {
                sayGoingAway(); // asked before the selector had the channels
            }
        } catch (IOException | RuntimeException e) {
            close(true); // closed meanwhile
        }
    }

    /** On the selector thread, once the server asked the tunnel to close: each end's close frame when it can go. */
    void sayGoingAway() {
        fromUpstream.closeAtFrameEnd();
        fromClient.closeAtFrameEnd();
    }

    @Override
    public Duration idleTime() {
        return Duration.ofNanos(System.nanoTime() - lastActivity);
    }

    @Override
    public void close(boolean interrupt) {
        if (!interrupt) {
            // the server stops: each end gets a close frame "going away" once what it is being sent reaches a frame's end
            if (!goingAway && !closed.get()) {
                goingAway = true;
                relay.goAway(this);
            }
            return;
        }
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try {
            upstream.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        try {
            client.close();
        } catch (IOException ignored) {
            // already closed by the client
        }
        relay.wakeup();
        wake();
    }

    private static void stopIfInterrupted() throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
    }

    /** Both close frames written: the connection's thread gives the ends a moment to read them, then closes. */
    private void saidAllGoingAway() {
        if (fromClient.closeSent && fromUpstream.closeSent && fromClient.pending == null && fromUpstream.pending == null) {
            saidGoingAway = true;
            wake();
        }
    }

    private void wake() {
        Thread thread = waiting;
        if (thread != null) {
            LockSupport.unpark(thread);
        }
    }

    /**
     * One end of the tunnel as the selector sees it: the bytes it sends are written to its peer; {@code pending}
     * holds bytes for this end that it did not take at once (then its peer is not read until they are written).
     */
    final class Side {
        private final SocketChannel channel;
        private final boolean isClient;
        private @Nullable SelectionKey key;
        private @Nullable ByteBuffer pending;
        private boolean inputEnded;
        /** Frames of what this end sends; after the gateway's close frame to its peer, the rest is dropped. */
        private final FrameBoundary frames = new FrameBoundary();
        private boolean closeSent;

        private Side(SocketChannel channel, boolean isClient) {
            this.channel = channel;
            this.isClient = isClient;
        }

        private Side peer() {
            return isClient ? fromUpstream : fromClient;
        }

        /** Registered before the selector hands this end over. */
        private SelectionKey key() {
            return Objects.requireNonNull(key);
        }

        RelayedWebSocketTunnel tunnel() {
            return RelayedWebSocketTunnel.this;
        }

        /** The selector found this end ready; {@code buffer} is the relay's, empty on return. */
        void ready(SelectionKey selected, ByteBuffer buffer) {
            try {
                if (selected.isValid() && selected.isWritable()) {
                    flush();
                }
                if (selected.isValid() && selected.isReadable()) {
                    read(buffer);
                }
            } catch (IOException | CancelledKeyException e) {
                close(true);
            }
        }

        private void read(ByteBuffer buffer) throws IOException {
            for (int i = 0; i < READS_PER_TURN; i++) {
                buffer.clear();
                int n = channel.read(buffer);
                if (n < 0) {
                    inputEnded();
                    return;
                }
                if (n == 0) {
                    return;
                }
                lastActivity = System.nanoTime();
                (isClient ? tunnels.bytesFromClients : tunnels.bytesFromUpstreams).add(n);
                if (closeSent) {
                    continue; // the peer was told the tunnel goes away: nothing more reaches it
                }
                buffer.flip();
                boolean closeNow = goingAway;
                buffer.limit(frames.pass(buffer, 0, n, closeNow));
                closeNow = closeNow && frames.atFrameEnd();
                Side peer = peer();
                if (!write(peer, buffer)) {
                    return;
                }
                if (closeNow) {
                    sendClose();
                }
            }
        }

        /** Writes {@code bytes} to {@code peer}; false when it did not take them all (kept until it does). */
        private boolean write(Side peer, ByteBuffer bytes) throws IOException {
            peer.channel.write(bytes);
            if (bytes.hasRemaining()) { // the peer is slower: keep the rest, read no more until it is written
                peer.pending = ByteBuffer.allocate(bytes.remaining()).put(bytes).flip();
                peer.key().interestOpsOr(SelectionKey.OP_WRITE);
                key().interestOpsAnd(~SelectionKey.OP_READ);
                return false;
            }
            return true;
        }

        /** Going away: the close frame to the peer when what this end sent so far ends a frame and was written. */
        private void closeAtFrameEnd() {
            if (!closeSent && key != null && frames.atFrameEnd() && peer().pending == null) {
                try {
                    sendClose();
                } catch (IOException | CancelledKeyException e) {
                    close(true);
                }
            }
        }

        private void sendClose() throws IOException {
            closeSent = true;
            // frames from the gateway to the upstream are a client's, masked
            write(peer(), FrameBoundary.goingAway(isClient));
            saidAllGoingAway();
        }

        private void flush() throws IOException {
            ByteBuffer bytes = pending;
            if (bytes != null) {
                channel.write(bytes);
                if (bytes.hasRemaining()) {
                    return;
                }
            }
            pending = null; // a buffer only while bytes wait
            key().interestOpsAnd(~SelectionKey.OP_WRITE);
            Side peer = peer();
            if (goingAway) {
                peer.closeAtFrameEnd();
                saidAllGoingAway();
            }
            if (peer.inputEnded) {
                peer.passEnd();
            } else {
                peer.key().interestOpsOr(SelectionKey.OP_READ);
            }
        }

        private void inputEnded() throws IOException {
            inputEnded = true;
            key().interestOpsAnd(~SelectionKey.OP_READ);
            if (peer().pending == null) {
                passEnd();
            }
        }

        /** This end's input ended and all it sent was written to its peer. */
        private void passEnd() throws IOException {
            if (isClient) {
                upstream.shutdownOutput();
                clientEnded = true;
                wake();
            } else {
                close(true);
            }
        }
    }
}
