package io.pylon.core.server;

import io.helidon.webserver.http.ServerRequest;
import io.pylon.core.http.ClientDeparture;
import io.pylon.core.http.ClientDepartures;
import org.jspecify.annotations.Nullable;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Finds the connection a request came on, for the request's handler to get its {@link ClientDeparture}: an HTTP/2
 * request's through the {@link Http2Connections}, an HTTP/1 request's from its connection registered here by id.
 *
 * <p>Threading: a concurrent map; HTTP/1 connections register and leave from their own threads, handlers look them up
 * on theirs.
 */
final class RequestDepartures implements ClientDepartures {
    private final Map<String, GuardedConnection> http1 = new ConcurrentHashMap<>();
    private final Http2Connections http2;

    RequestDepartures(Http2Connections http2) {
        this.http2 = http2;
    }

    void add(GuardedConnection connection) {
        http1.put(connection.childSocketId(), connection);
    }

    void remove(GuardedConnection connection) {
        http1.remove(connection.childSocketId(), connection);
    }

    @Override
    public @Nullable ClientDeparture of(ServerRequest req) {
        if ("2.0".equals(req.prologue().protocolVersion())) {
            return http2.departure(req.socketId(), req.id());
        }
        GuardedConnection connection = http1.get(req.socketId());
        return connection == null ? null : connection.requestDeparture(req.id());
    }
}
