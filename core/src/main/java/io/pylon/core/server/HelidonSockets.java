package io.pylon.core.server;

import io.helidon.common.socket.HelidonSocket;
import io.helidon.common.socket.NioSocket;
import io.helidon.common.socket.PlainSocket;
import org.jspecify.annotations.Nullable;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.net.Socket;
import java.nio.channels.SocketChannel;

/**
 * The JDK socket under a plain client connection of Helidon 4.5's listener, which offers neither a half-close nor a
 * way to take a connection over: reached by reflection on the private {@code delegate} field of {@link PlainSocket}
 * (blocking sockets, Helidon's default) and of {@link NioSocket}. Each answers null for a TLS connection, for the other
 * kind of socket, or when the field cannot be reached (another Helidon version, Helidon on the module path); the
 * callers' tests fail when the pinned Helidon no longer allows it.
 *
 * <p>Stateless; the handles are resolved once.
 */
public final class HelidonSockets {
    private static final System.Logger LOG = System.getLogger(HelidonSockets.class.getName());
    private static final @Nullable VarHandle PLAIN_DELEGATE = handle(PlainSocket.class, Socket.class);
    private static final @Nullable VarHandle NIO_DELEGATE = handle(NioSocket.class, SocketChannel.class);

    private HelidonSockets() {
    }

    private static @Nullable VarHandle handle(Class<?> owner, Class<?> type) {
        try {
            return MethodHandles.privateLookupIn(owner, MethodHandles.lookup()).findVarHandle(owner, "delegate", type);
        } catch (ReflectiveOperationException | RuntimeException e) {
            LOG.log(System.Logger.Level.INFO, "The socket under Helidon's " + owner.getSimpleName()
                    + " cannot be reached (" + e.getClass().getSimpleName() + "): what needs it falls back "
                    + "(lingering closes send no FIN first; WebSocket tunnels are relayed by threads)");
            return null;
        }
    }

    /** The socket under a {@code PlainSocket}, or null. */
    public static @Nullable Socket plain(HelidonSocket socket) {
        if (PLAIN_DELEGATE == null || socket.getClass() != PlainSocket.class) {
            return null;
        }
        return (Socket) PLAIN_DELEGATE.get((PlainSocket) socket);
    }

    /** The channel under a {@code NioSocket}, or null. */
    public static @Nullable SocketChannel nio(HelidonSocket socket) {
        if (NIO_DELEGATE == null || socket.getClass() != NioSocket.class) {
            return null;
        }
        return (SocketChannel) NIO_DELEGATE.get((NioSocket) socket);
    }

    /** Whether this JVM's Helidon lets the socket under a {@code PlainSocket} be reached. */
    public static boolean plainReachable() {
        return PLAIN_DELEGATE != null;
    }
}
