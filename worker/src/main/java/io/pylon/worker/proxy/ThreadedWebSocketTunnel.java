package io.pylon.worker.proxy;

import io.helidon.common.buffers.BufferData;
import io.helidon.common.buffers.DataReader;
import io.helidon.common.concurrency.limits.Limit;
import io.helidon.common.socket.HelidonSocket;
import io.helidon.webserver.ConnectionContext;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A WebSocket tunnel with a TLS end (the listener's or the upstream's), whose sockets a selector cannot relay: bytes
 * relayed both ways as they come, never re-framed (frames, pings, close frames and their codes pass as the two ends
 * wrote them). The client's side is read on the connection's own virtual thread, the upstream's on a second one. When
 * the client's side ends, the upstream's output is shut (it sees the end and finishes its close handshake); when the
 * upstream's side ends, or either fails, or the tunnel was idle too long, both sockets are closed. When the server
 * stops (its graceful close), each end gets a close frame {@code 1001 Going Away} once what it is being sent reaches a
 * frame's end ({@link FrameBoundary}), as on a plain tunnel; after both went, the ends get
 * {@value WebSocketTunnel#GOING_AWAY_MILLIS} ms to read them, then both sockets close.
 *
 * Plain tunnels are {@link RelayedWebSocketTunnel}s.
 *
 * <p>Read buffers start at 1 KiB and double (up to 16 KiB) only when a read fills them, so ten thousand idle tunnels
 * hold little memory.
 *
 * <p>Threading: the two relay threads, the idle sweep and the server's shutdown share {@code lastActivity} (volatile)
 * and {@code closed} and {@code goingAway} (atomic); closing a socket from another thread is what ends a blocked read.
 * Each direction's frame boundary, close-sent flag and writes to its receiving end are guarded by that direction's
 * lock, which its relay thread holds while it passes bytes on and the thread that says "going away" takes to put the
 * close frame between two frames.
 */
final class ThreadedWebSocketTunnel implements WebSocketTunnel {
    private static final System.Logger LOG = System.getLogger(ThreadedWebSocketTunnel.class.getName());
    private static final int MIN_BUFFER = 1024;
    private static final int MAX_BUFFER = 16 * 1024;

    private final ConnectionContext client;
    private final Socket upstream;
    private final byte[] upstreamLeftover;
    private final WebSocketTunnels tunnels;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final AtomicBoolean goingAway = new AtomicBoolean();
    private final Direction fromClient = new Direction(true);
    private final Direction fromUpstream = new Direction(false);
    private volatile long lastActivity = System.nanoTime();

    /** @param upstreamLeftover bytes the upstream sent right after its 101, already read with the handshake */
    ThreadedWebSocketTunnel(ConnectionContext client, Socket upstream, byte[] upstreamLeftover, WebSocketTunnels tunnels) {
        this.client = client;
        this.upstream = upstream;
        this.upstreamLeftover = upstreamLeftover;
        this.tunnels = tunnels;
    }

    @Override
    public long lastActivity() {
        return lastActivity;
    }

    @Override
    public void handle(Limit limit) throws InterruptedException {
        tunnels.add(this);
        Thread down = Thread.ofVirtual().name("websocket-upstream").start(this::upstreamToClient);
        try {
            clientToUpstream();
        } finally {
            down.join(Duration.ofSeconds(5).toMillis()); // the upstream's close handshake, if it is still sending
            close(true);
            down.join();
            tunnels.remove(this);
        }
    }

    private void clientToUpstream() {
        try {
            DataReader pending = client.dataReader();
            int available = pending.available();
            if (available > 0) { // sent by the client right behind its upgrade request
                byte[] bytes = pending.readBytes(available);
                fromClient.relay(bytes, bytes.length);
            }
            HelidonSocket socket = client.serverSocket();
            byte[] bytes;
            while ((bytes = socket.get()) != null) {
                lastActivity = System.nanoTime();
                fromClient.relay(bytes, bytes.length);
            }
            upstream.shutdownOutput();
        } catch (IOException | UncheckedIOException | IllegalStateException e) {
            close(true);
        } catch (RuntimeException e) {
            // a socket closed by the sweep or the shutdown fails Helidon's read with its own exception
            close(true);
        }
    }

    private void upstreamToClient() {
        try {
            if (upstreamLeftover.length > 0) {
                fromUpstream.relay(upstreamLeftover, upstreamLeftover.length);
            }
            InputStream in = upstream.getInputStream();
            byte[] buffer = new byte[MIN_BUFFER];
            int n;
            while ((n = in.read(buffer)) >= 0) {
                lastActivity = System.nanoTime();
                fromUpstream.relay(buffer, n);
                if (n == buffer.length && buffer.length < MAX_BUFFER) {
                    buffer = new byte[buffer.length * 2];
                }
            }
        } catch (IOException | RuntimeException e) {
            if (!closed.get()) {
                LOG.log(System.Logger.Level.DEBUG, "WebSocket tunnel ended: " + e.getClass().getSimpleName());
            }
        } finally {
            close(true);
        }
    }

    @Override
    public Duration idleTime() {
        return Duration.ofNanos(System.nanoTime() - lastActivity);
    }

    @Override
    public void close(boolean interrupt) {
        if (!interrupt) {
            // the server stops: each end gets "going away" between two frames; not on the server's thread, as a
            // direction's lock may be held by a write to a slow end
            if (!closed.get() && goingAway.compareAndSet(false, true)) {
                Thread.ofVirtual().name("websocket-going-away").start(() -> {
                    fromUpstream.closeAtFrameEnd();
                    fromClient.closeAtFrameEnd();
                });
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
            client.serverSocket().close();
        } catch (RuntimeException ignored) {
            // already closed by the client
        }
    }

    /** Both close frames went: the ends get a moment to read them and answer, then both sockets close. */
    private void saidAllGoingAway() {
        if (fromClient.closeSent && fromUpstream.closeSent) {
            Thread.ofVirtual().name("websocket-gone-away").start(() -> {
                try {
                    Thread.sleep(GOING_AWAY_MILLIS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } finally {
                    close(true);
                }
            });
        }
    }

    /** One direction of the tunnel: what one end sends, written to the other. */
    private final class Direction {
        private final boolean isClient;
        private final ReentrantLock lock = new ReentrantLock();
        /** Frames of what this end sends; after the gateway's close frame to the other end, the rest is dropped. */
        private final FrameBoundary frames = new FrameBoundary();
        private volatile boolean closeSent;

        private Direction(boolean isClient) {
            this.isClient = isClient;
        }

        /** Passes the first {@code n} bytes of {@code bytes} on to the other end (up to a frame's end when going away). */
        void relay(byte[] bytes, int n) throws IOException {
            (isClient ? tunnels.bytesFromClients : tunnels.bytesFromUpstreams).add(n);
            lock.lock();
            try {
                if (closeSent) {
                    return; // the other end was told the tunnel goes away: nothing more reaches it
                }
                boolean closeNow = goingAway.get();
                int end = frames.pass(ByteBuffer.wrap(bytes, 0, n), 0, n, closeNow);
                write(bytes, end);
                if (closeNow && frames.atFrameEnd()) {
                    sendClose();
                }
            } finally {
                lock.unlock();
            }
        }

        /** Going away: the close frame to the other end now, when what this end sent so far ends a frame. */
        void closeAtFrameEnd() {
            lock.lock();
            try {
                if (!closeSent && frames.atFrameEnd()) {
                    sendClose();
                }
            } catch (IOException | RuntimeException e) {
                close(true);
            } finally {
                lock.unlock();
            }
        }

        private void sendClose() throws IOException {
            closeSent = true;
            ByteBuffer frame = FrameBoundary.goingAway(isClient); // to the upstream: masked
            write(frame.array(), frame.limit());
            saidAllGoingAway();
        }

        private void write(byte[] bytes, int n) throws IOException {
            if (n == 0) {
                return;
            }
            if (isClient) {
                upstream.getOutputStream().write(bytes, 0, n);
            } else {
                client.dataWriter().writeNow(BufferData.create(bytes, 0, n));
            }
        }
    }
}
