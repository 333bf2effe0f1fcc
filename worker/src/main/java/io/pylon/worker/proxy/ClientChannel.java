package io.pylon.worker.proxy;

import io.helidon.common.socket.HelidonSocket;
import io.helidon.common.socket.PlainSocket;
import io.pylon.core.server.HelidonSockets;
import org.jspecify.annotations.Nullable;

import java.lang.reflect.Field;
import java.net.Socket;
import java.nio.channels.SocketChannel;

/**
 * The socket channel under a plain client connection of Helidon's listener, taken over for a tunnel that a selector
 * relays. Helidon 4.5 accepts a socket channel and, with blocking sockets, wraps the channel's socket in a
 * {@link PlainSocket}, but offers no way to reach either the channel or a connection without the {@code PlainSocket}'s
 * 8 KiB read buffer, held for the connection's life: 80 MB for ten thousand idle tunnels. So both are reached by
 * reflection on {@code PlainSocket}'s private fields ({@code delegate} through {@link HelidonSockets}, and
 * {@code readBuffer}), once the upgrade is
 * answered and Helidon reads the connection no more. When that is not possible (a TLS listener, another Helidon
 * version, Helidon on the module path), {@link #takeOver} answers null and the tunnel is relayed by threads instead;
 * {@code WebSocketRelayTest} fails when the pinned Helidon no longer allows it (no tunnel is relayed by the selector).
 *
 * <p>Stateless; the handles are resolved once.
 */
final class ClientChannel {
    private static final System.Logger LOG = System.getLogger(ClientChannel.class.getName());
    private static final byte[] NO_BUFFER = new byte[0];
    private static final @Nullable Field READ_BUFFER;

    static {
        Field readBuffer = null;
        try {
            readBuffer = PlainSocket.class.getDeclaredField("readBuffer");
            readBuffer.setAccessible(true);
        } catch (ReflectiveOperationException | RuntimeException e) {
            LOG.log(System.Logger.Level.INFO, "WebSocket tunnels are relayed by two threads each: Helidon's client "
                    + "socket cannot be taken over (" + e.getClass().getSimpleName() + ")");
            readBuffer = null;
        }
        READ_BUFFER = readBuffer;
    }

    private ClientChannel() {
    }

    /** Whether this JVM's Helidon lets plain client connections be taken over. */
    static boolean available() {
        return HelidonSockets.plainReachable() && READ_BUFFER != null;
    }

    /**
     * The channel of a plain client connection, its {@code PlainSocket}'s read buffer released; null for a TLS
     * connection or when the handles could not be resolved. Only once Helidon is done reading the connection.
     */
    static @Nullable SocketChannel takeOver(HelidonSocket socket) {
        if (READ_BUFFER == null) {
            return null;
        }
        try {
            Socket plain = HelidonSockets.plain(socket);
            SocketChannel channel = plain == null ? null : plain.getChannel();
            if (channel == null) {
                return null;
            }
            READ_BUFFER.set(socket, NO_BUFFER);
            return channel;
        } catch (IllegalAccessException | RuntimeException e) {
            return null;
        }
    }
}
