package io.pylon.core.server;

import io.helidon.common.socket.HelidonSocket;
import org.jspecify.annotations.Nullable;

import java.io.Closeable;
import java.io.IOException;
import java.net.Socket;
import java.nio.channels.SocketChannel;

/**
 * Ends the sending side of a plain client connection (TCP FIN) while its receiving side stays open, the first step of
 * a lingering close: the client sees the end of the answer, and what it still sends is read and discarded. Helidon
 * 4.5's sockets offer no half-close (only a close that shuts both sides at once), so the channel or socket under
 * Helidon's is reached ({@link HelidonSockets}). A TLS connection is not half-closed (a TCP FIN without TLS
 * close_notify is a truncation), nor one whose socket cannot be reached (another Helidon version, Helidon on the module
 * path): it lingers without the FIN. {@code LingeringCloseTest} fails when the pinned Helidon no longer allows the
 * half-close.
 *
 * <p>Stateless.
 */
final class HalfClose {
    private HalfClose() {
    }

    /**
     * Shuts the sending side of {@code socket}'s connection, after everything written before. Returns what closes the
     * connection for good (the channel or socket under it), or null when it could not be half-closed. Helidon's own
     * close of a half-closed {@code PlainSocket} fails before closing (it shuts the output again, which a
     * {@link Socket} refuses), so the caller must close what this returns itself.
     */
    static @Nullable Closeable shutdownOutput(HelidonSocket socket) {
        try {
            SocketChannel channel = HelidonSockets.nio(socket);
            if (channel != null) {
                channel.shutdownOutput();
                return channel;
            }
            Socket plain = HelidonSockets.plain(socket);
            if (plain != null) {
                plain.shutdownOutput();
                return plain;
            }
        } catch (IOException | RuntimeException e) {
            return null; // the client is gone already; the read that follows ends at once
        }
        return null;
    }
}
