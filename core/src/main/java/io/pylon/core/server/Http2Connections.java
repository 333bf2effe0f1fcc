package io.pylon.core.server;

import io.pylon.core.http.ClientDeparture;
import org.jspecify.annotations.Nullable;

import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The pod's HTTP/2 client connections by id, so that a request finds the connection it came on: an HTTP/2 connection
 * is idle only while none of its streams is in flight, and only the requests know that; and a request's handler finds
 * its {@link ClientDeparture} there.
 *
 * <p>Threading: a concurrent map; connections register and leave from their own threads, requests start and end on
 * theirs, the sweep reads it on the scheduler's thread.
 */
final class Http2Connections {
    private final Map<String, GuardedConnection> byId = new ConcurrentHashMap<>();

    void add(GuardedConnection connection) {
        byId.put(connection.childSocketId(), connection);
    }

    /** The connection ended: its requests still in flight lost their client. */
    void remove(GuardedConnection connection) {
        byId.remove(connection.childSocketId(), connection);
        connection.clientLeft();
    }

    /** A request started on stream {@code streamId} of the connection of this socket id. */
    void requestStarted(String socketId, int streamId) {
        GuardedConnection connection = byId.get(socketId);
        if (connection != null) {
            connection.requestStarted(streamId);
        }
    }

    /** The departure of the request on stream {@code streamId} of the connection of this socket id, if in flight. */
    @Nullable ClientDeparture departure(String socketId, int streamId) {
        GuardedConnection connection = byId.get(socketId);
        return connection == null ? null : connection.departure(streamId);
    }

    void requestEnded(String socketId, int streamId) {
        GuardedConnection connection = byId.get(socketId);
        if (connection != null) {
            connection.requestEnded(streamId);
        }
    }

    Collection<GuardedConnection> all() {
        return byId.values();
    }
}
