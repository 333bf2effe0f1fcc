package io.pylon.core.server;

import io.helidon.common.socket.HelidonSocket;

import java.io.IOException;
import java.net.SocketAddress;
import java.nio.channels.SocketChannel;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Connections the listener accepted that no protocol has taken yet. Before any connection selector sees a connection,
 * Helidon completes its TLS handshake and, with more than one protocol on the listener (HTTP/2 beside HTTP/1), reads
 * its first bytes to tell them apart; neither has a timeout, so a client that connects and sends nothing (or half a
 * TLS hello) would hold a connection slot, a thread and a descriptor for as long as it likes. Each accepted socket is
 * noted here as Helidon configures it and forgotten when a protocol takes it; the sweep closes the ones still waiting
 * after the bound.
 *
 * <p>Threading: the accept thread adds, a connection's own thread removes once a protocol took it, the sweeper reads
 * and removes; all through one concurrent map.
 */
final class AcceptedConnections {
    private record Key(SocketAddress remote, SocketAddress local) {
    }

    private record Waiting(SocketChannel channel, long acceptedAt) {
    }

    private final Map<Key, Waiting> waiting = new ConcurrentHashMap<>();

    /** Called by the accept thread for each accepted socket. */
    void accepted(SocketChannel channel) {
        try {
            waiting.put(new Key(channel.getRemoteAddress(), channel.getLocalAddress()),
                    new Waiting(channel, System.nanoTime()));
        } catch (IOException e) {
            // closed already: Helidon's handler ends at its first use
        }
    }

    /** A protocol took the connection: its own timeouts apply from now on. */
    void taken(HelidonSocket socket) {
        if (!waiting.isEmpty()) {
            waiting.remove(new Key(socket.remotePeer().address(), socket.localPeer().address()));
        }
    }

    /** Closes the connections accepted more than {@code boundNanos} ago and not taken yet; returns how many. */
    int closeWaitingLongerThan(long boundNanos, long now) {
        int closed = 0;
        for (Iterator<Waiting> it = waiting.values().iterator(); it.hasNext(); ) {
            Waiting w = it.next();
            if (!w.channel().isOpen()) {
                it.remove(); // the handshake failed, or the client left: Helidon closed it
            } else if (now - w.acceptedAt() > boundNanos) {
                it.remove();
                try {
                    w.channel().close();
                    closed++;
                } catch (IOException e) {
                    // closing is all that was wanted
                }
            }
        }
        return closed;
    }

    /** Connections waiting now (still open). */
    int open() {
        int open = 0;
        for (Waiting w : waiting.values()) {
            if (w.channel().isOpen()) {
                open++;
            }
        }
        return open;
    }
}
