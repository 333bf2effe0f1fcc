package io.pylon.core.http;

import org.jspecify.annotations.Nullable;

import java.time.Instant;

/**
 * A request the pod refused before any route took it, as its answer was written: what of the request could be read
 * (nothing of a request line that did not parse), the status and the bytes sent (status line, header fields, body).
 *
 * @param at        when the refusal was answered (UTC, milliseconds)
 * @param client    the connection's address; null when the listener did not say
 * @param method    null when the request line did not parse
 * @param path      the target's path without its query (a query may hold a key or a token); null when unread
 * @param protocol  {@code HTTP/1.1}, say; null when unread
 * @param host      the {@code Host} field; null when the header block was not read
 * @param requestId the {@code X-Request-Id} the answer carried; null when it carried none
 */
public record RefusedRequest(Instant at, @Nullable String client, @Nullable String method, @Nullable String path,
                             @Nullable String protocol, @Nullable String host, int status, long bytes,
                             @Nullable String requestId) {
}
