package io.pylon.worker.proxy;

import io.helidon.webserver.spi.ServerConnection;

/**
 * One WebSocket connection after the upstream's 101, as Helidon's listener runs it (its connection's thread is in
 * {@link #handle} while the tunnel is open) and as {@link WebSocketTunnels} sweeps it: a plain one relayed by the pod's
 * selector ({@link RelayedWebSocketTunnel}), one with a TLS end by two threads ({@link ThreadedWebSocketTunnel}).
 */
sealed interface WebSocketTunnel extends ServerConnection permits RelayedWebSocketTunnel, ThreadedWebSocketTunnel {
    /** How long the ends get to read the gateway's close frames ({@link FrameBoundary#goingAway}) before both sockets close. */
    long GOING_AWAY_MILLIS = 500;

    /** {@link System#nanoTime()} of the last bytes read from either end. */
    long lastActivity();
}
