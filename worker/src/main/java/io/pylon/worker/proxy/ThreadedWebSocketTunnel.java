package io.pylon.worker.proxy;

import io.helidon.common.buffers.BufferData;
import io.helidon.common.buffers.DataReader;
import io.helidon.common.concurrency.limits.Limit;
import io.helidon.common.socket.HelidonSocket;
import io.helidon.webserver.ConnectionContext;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A WebSocket tunnel with a TLS end (the listener's or the upstream's), whose sockets a selector cannot relay: bytes
 * relayed both ways as they come, never re-framed (frames, pings, close frames and their codes pass as the two ends
 * wrote them). The client's side is read on the connection's own virtual thread, the upstream's on a second one. When the client's side ends, the upstream's output is shut
 * (it sees the end and finishes its close handshake); when the upstream's side ends, or either fails, or the tunnel
 * was idle too long, both sockets are closed.
 *
 * Plain tunnels are {@link RelayedWebSocketTunnel}s.
 *
 * <p>Read buffers start at 1 KiB and double (up to 16 KiB) only when a read fills them, so ten thousand idle tunnels
 * hold little memory.
 *
 * <p>Threading: the two relay threads, the idle sweep and the server's shutdown share {@code lastActivity} (volatile)
 * and {@code closed} (atomic); closing a socket from another thread is what ends a blocked read.
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
            OutputStream out = upstream.getOutputStream();
            DataReader pending = client.dataReader();
            int available = pending.available();
            if (available > 0) { // sent by the client right behind its upgrade request
                write(out, pending.readBytes(available));
            }
            HelidonSocket socket = client.serverSocket();
            byte[] bytes;
            while ((bytes = socket.get()) != null) {
                write(out, bytes);
            }
            upstream.shutdownOutput();
        } catch (IOException | UncheckedIOException | IllegalStateException e) {
            close(true);
        } catch (RuntimeException e) {
            // a socket closed by the sweep or the shutdown fails Helidon's read with its own exception
            close(true);
        }
    }

    private void write(OutputStream out, byte[] bytes) throws IOException {
        lastActivity = System.nanoTime();
        out.write(bytes);
        tunnels.bytesFromClients.add(bytes.length);
    }

    private void upstreamToClient() {
        try {
            if (upstreamLeftover.length > 0) {
                client.dataWriter().writeNow(BufferData.create(upstreamLeftover));
                tunnels.bytesFromUpstreams.add(upstreamLeftover.length);
            }
            InputStream in = upstream.getInputStream();
            byte[] buffer = new byte[MIN_BUFFER];
            int n;
            while ((n = in.read(buffer)) >= 0) {
                lastActivity = System.nanoTime();
                client.dataWriter().writeNow(BufferData.create(buffer, 0, n));
                tunnels.bytesFromUpstreams.add(n);
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
        if (!interrupt || !closed.compareAndSet(false, true)) {
            return; // a graceful close (server draining) lets the tunnel run until an end closes it
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
}
