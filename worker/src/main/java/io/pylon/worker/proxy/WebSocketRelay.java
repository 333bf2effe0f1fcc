package io.pylon.worker.proxy;

import org.jspecify.annotations.Nullable;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The pod's one selector thread relaying every plain WebSocket tunnel, as nginx does: both sockets of a tunnel are
 * registered for reading, what one end sends is read into one buffer shared by all tunnels and written on to the other
 * end at once. Only bytes the other end does not take at once get a buffer of their own, while reading from the
 * sending end pauses until they are written ({@link RelayedWebSocketTunnel}). So an idle tunnel holds no buffer and
 * no thread of its own. The thread starts with the first tunnel.
 *
 * <p>Threading: only the selector thread reads, writes and changes a key's interest; tunnels arrive, and are asked
 * to go away, through concurrent queues; any thread may close a tunnel (closing its channels cancels their keys, then the selector is woken).
 */
final class WebSocketRelay implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(WebSocketRelay.class.getName());
    private static final int BUFFER_BYTES = 64 * 1024;

    private final Queue<RelayedWebSocketTunnel> arriving = new ConcurrentLinkedQueue<>();
    private final Queue<RelayedWebSocketTunnel> goingAway = new ConcurrentLinkedQueue<>();
    private final Object lock = new Object();
    private @Nullable Selector selector; // guarded by lock
    private volatile boolean closed;

    /** Hands a tunnel, its channels non-blocking, to the selector thread. */
    void add(RelayedWebSocketTunnel tunnel) throws IOException {
        Selector current;
        synchronized (lock) {
            if (closed) {
                throw new IOException("The pod is stopping");
            }
            if (selector == null) {
                Selector opened = Selector.open();
                Thread.ofPlatform().daemon().name("pylon-websocket-relay").start(() -> run(opened));
                selector = opened;
            }
            current = selector;
        }
        arriving.add(tunnel);
        current.wakeup();
    }

    /** The server stops: the tunnel tells both ends it goes away (on the selector thread). */
    void goAway(RelayedWebSocketTunnel tunnel) {
        goingAway.add(tunnel);
        wakeup();
    }

    /** After a tunnel's channels were closed by another thread: the selector releases their descriptors. */
    void wakeup() {
        Selector current;
        synchronized (lock) {
            current = selector;
        }
        if (current != null) {
            current.wakeup();
        }
    }

    private void run(Selector selector) {
        ByteBuffer buffer = ByteBuffer.allocateDirect(BUFFER_BYTES);
        try {
            while (!closed) {
                selector.select();
                RelayedWebSocketTunnel tunnel;
                while ((tunnel = arriving.poll()) != null) {
                    tunnel.register(selector);
                }
                while ((tunnel = goingAway.poll()) != null) {
                    tunnel.sayGoingAway();
                }
                for (SelectionKey key : selector.selectedKeys()) {
                    ((RelayedWebSocketTunnel.Side) key.attachment()).ready(key, buffer);
                }
                selector.selectedKeys().clear();
            }
        } catch (IOException | RuntimeException e) {
            if (!closed) {
                LOG.log(System.Logger.Level.ERROR, "The WebSocket relay stopped; its tunnels are closed", e);
            }
        } finally {
            closeAll(selector);
        }
    }

    private void closeAll(Selector selector) {
        synchronized (lock) {
            this.selector = null; // a later tunnel starts a new relay (unless the pod stops)
        }
        List<RelayedWebSocketTunnel> open = new ArrayList<>();
        try {
            for (SelectionKey key : selector.keys()) {
                open.add(((RelayedWebSocketTunnel.Side) key.attachment()).tunnel());
            }
        } catch (RuntimeException ignored) {
            // the selector is closed: its tunnels were closed with it
        }
        RelayedWebSocketTunnel tunnel;
        while ((tunnel = arriving.poll()) != null) {
            open.add(tunnel);
        }
        for (RelayedWebSocketTunnel each : open) {
            each.close(true);
        }
        try {
            selector.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }

    /** Closes every tunnel it relays; the pod is stopping. */
    @Override
    public void close() {
        closed = true;
        wakeup();
    }
}
