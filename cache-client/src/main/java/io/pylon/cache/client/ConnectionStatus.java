package io.pylon.cache.client;

import java.time.Instant;

/** A {@link ConnectionState} and since when it holds. */
public record ConnectionStatus(ConnectionState state, Instant since) {
}
