package io.pylon.worker.proxy;

import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerResponse;
import io.pylon.core.http.ErrorBody;
import org.jspecify.annotations.Nullable;

/**
 * An answer the gateway gives itself instead of the upstream's: the JSON error body, {@code Retry-After} when the
 * client may try again, and nothing of the upstream (no address, no exception text). A plain value, so each stage
 * decides what to answer and the handler only sends it. The body is an {@link ErrorBody} with the request's
 * {@link RequestId} as {@code request_id} (Kong's name for it), so that a developer who pastes the body into a report
 * gives the operator what finds the request in the access log.
 *
 * @param retryAfterSeconds 0 when no {@code Retry-After} is sent
 */
record GatewayError(Status status, String error, String message, long retryAfterSeconds) {
    static final GatewayError BAD_GATEWAY = new GatewayError(Status.BAD_GATEWAY_502, "bad_gateway",
            "The upstream service could not be reached.", 0);
    static final GatewayError TLS_UNTRUSTED = new GatewayError(Status.BAD_GATEWAY_502, "bad_gateway",
            "TLS to the upstream failed: its certificate is not signed by an authority this route trusts "
                    + "(upstreamTls.caFile).", 0);
    static final GatewayError TLS_NAME_MISMATCH = new GatewayError(Status.BAD_GATEWAY_502, "bad_gateway",
            "TLS to the upstream failed: its certificate is not for the name checked (the upstream's host, or "
                    + "upstreamTls.serverName).", 0);
    static final GatewayError TLS_REFUSED = new GatewayError(Status.BAD_GATEWAY_502, "bad_gateway",
            "TLS to the upstream failed: the upstream refused the handshake (it may require a client certificate: "
                    + "upstreamTls.certificateFile).", 0);
    static final GatewayError TLS_FAILED = new GatewayError(Status.BAD_GATEWAY_502, "bad_gateway",
            "TLS to the upstream failed.", 0);
    static final GatewayError RESPONSE_HEAD_TOO_LARGE = new GatewayError(Status.BAD_GATEWAY_502, "bad_gateway",
            "The upstream service's response head is larger than the gateway accepts (a header line over "
                    + (UpstreamConnections.MAX_LINE >> 10) + " KiB, or more than " + UpstreamConnections.MAX_FIELDS
                    + " header fields).", 0);
    static final GatewayError RESPONSE_MALFORMED = new GatewayError(Status.BAD_GATEWAY_502, "bad_gateway",
            "The upstream service's response breaks HTTP's rules (its status line, or its framing: two Content-Lengths, "
                    + "say).", 0);
    static final GatewayError GATEWAY_TIMEOUT = new GatewayError(Status.GATEWAY_TIMEOUT_504, "gateway_timeout",
            "The upstream service did not answer in time.", 0);
    static final GatewayError BODY_TOO_LARGE = new GatewayError(Status.REQUEST_ENTITY_TOO_LARGE_413,
            "payload_too_large", "The request body is larger than this route accepts.", 0);
    static final GatewayError BODY_TIMEOUT = new GatewayError(Status.REQUEST_TIMEOUT_408, "request_timeout",
            "The request body stopped arriving: no bytes within the body timeout.", 0);
    static final GatewayError BODY_CHUNK_TOO_LARGE = new GatewayError(Status.REQUEST_ENTITY_TOO_LARGE_413,
            "payload_too_large", "A chunk of the request body, or a line of its chunked framing, is larger than "
                    + (ClientRequestBody.MAX_CHUNK >> 20) + " MiB; send the body in smaller chunks.", 0);
    static final GatewayError BODY_MALFORMED = new GatewayError(Status.BAD_REQUEST_400, "bad_request",
            "The chunked request body is malformed: each chunk must be a hexadecimal size, CRLF, the data and CRLF, and "
                    + "the last chunk a 0 followed by an empty line (chunk extensions and trailer fields are not accepted).",
            0);
    static final GatewayError POOL_EXHAUSTED = new GatewayError(Status.SERVICE_UNAVAILABLE_503, "service_unavailable",
            "The upstream service has too many requests in progress; try again later.", 1);

    static GatewayError of(Status status, String error, String message) {
        return new GatewayError(status, error, message, 0);
    }

    /** Sends this answer with the request ID already on {@code res} (none when the gateway gives none). */
    void send(ServerResponse res) {
        if (retryAfterSeconds > 0) {
            res.header(HeaderNames.RETRY_AFTER, String.valueOf(retryAfterSeconds));
        }
        body(res.headers().first(RequestId.NAME).orElse(null)).send(res, status);
    }

    /** The JSON this answer carries; {@code request_id} is left out when the gateway gives none. */
    ErrorBody body(@Nullable String requestId) {
        return new ErrorBody(error, message, null, requestId);
    }
}
