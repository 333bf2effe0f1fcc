package io.pylon.core.server;

import io.helidon.common.socket.HelidonSocket;
import io.helidon.common.socket.NioSocket;
import io.helidon.common.socket.PlainSocket;
import org.jspecify.annotations.Nullable;

import java.io.Closeable;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.net.Socket;
import java.nio.channels.SocketChannel;

/**
 * Ends the sending side of a plain client connection (TCP FIN) while its receiving side stays open, the first step of
 * a lingering close: the client sees the end of the answer, and what it still sends is read and discarded. Helidon
 * 4.5's sockets offer no half-close (only a close that shuts both sides at once), so the channel under a
 * {@link NioSocket} or the socket under a {@link PlainSocket} is reached by reflection on their private
 * {@code delegate} field. A TLS connection is not half-closed (a TCP FIN without TLS close_notify is a truncation), nor
 * one whose socket cannot be reached (another Helidon version, Helidon on the module path): it lingers without the
 * FIN. {@code LingeringCloseTest} fails when the pinned Helidon no longer allows the half-close.
 *
 * <p>Stateless; the handles are resolved once.
 */
final class HalfClose {
    private static final System.Logger LOG = System.getLogger(HalfClose.class.getName());
    private static final @Nullable VarHandle NIO_DELEGATE = handle(NioSocket.class, SocketChannel.class);
    private static final @Nullable VarHandle PLAIN_DELEGATE = handle(PlainSocket.class, Socket.class);

    private HalfClose() {
    }

    private static @Nullable VarHandle handle(Class<?> owner, Class<?> type) {
        try {
            return MethodHandles.privateLookupIn(owner, MethodHandles.lookup()).findVarHandle(owner, "delegate", type);
        } catch (ReflectiveOperationException | RuntimeException e) {
            LOG.log(System.Logger.Level.INFO, "Lingering closes of " + owner.getSimpleName() + " connections send no "
                    + "FIN first: Helidon's socket cannot be reached (" + e.getClass().getSimpleName() + ")");
            return null;
        }
    }

    /**
     * Shuts the sending side of {@code socket}'s connection, after everything written before. Returns what closes the
     * connection for good (the channel or socket under it), or null when it could not be half-closed. Helidon's own
     * close of a half-closed {@code PlainSocket} fails before closing (it shuts the output again, which a
     * {@link Socket} refuses), so the caller must close what this returns itself.
     */
    static @Nullable Closeable shutdownOutput(HelidonSocket socket) {
        try {
            if (socket.getClass() == NioSocket.class && NIO_DELEGATE != null) {
                SocketChannel channel = (SocketChannel) NIO_DELEGATE.get((NioSocket) socket);
                channel.shutdownOutput();
                return channel;
            }
            if (socket.getClass() == PlainSocket.class && PLAIN_DELEGATE != null) {
                Socket plain = (Socket) PLAIN_DELEGATE.get((PlainSocket) socket);
                plain.shutdownOutput();
                return plain;
            }
        } catch (IOException | RuntimeException e) {
            return null; // the client is gone already; the read that follows ends at once
        }
        return null;
    }
}
