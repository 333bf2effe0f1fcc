package io.pylon.core.server;

import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The pod's HTTP/2 client connections by id, so that a request finds the connection it came on: an HTTP/2 connection
 * is idle only while none of its streams is in flight, and only the requests know that.
 *
 * <p>Threading: a concurrent map; connections register and leave from their own threads, requests start and end on
 * theirs, the sweep reads it on the scheduler's thread.
 */
final class Http2Connections {
    private final Map<String, GuardedConnection> byId = new ConcurrentHashMap<>();

    void add(GuardedConnection connection) {
        byId.put(connection.childSocketId(), connection);
    }

    void remove(GuardedConnection connection) {
        byId.remove(connection.childSocketId(), connection);
    }

    /** A request started on the connection of this socket id (not an HTTP/2 one: nothing). */
    void requestStarted(String socketId) {
        GuardedConnection connection = byId.get(socketId);
        if (connection != null) {
            connection.requestStarted();
        }
    }

    void requestEnded(String socketId) {
        GuardedConnection connection = byId.get(socketId);
        if (connection != null) {
            connection.requestEnded();
        }
    }

    Collection<GuardedConnection> all() {
        return byId.values();
    }
}
