package io.pylon.worker.proxy;

import org.apache.hc.core5.http.MessageConstraintException;
import org.jspecify.annotations.Nullable;

import javax.net.ssl.SSLException;
import javax.net.ssl.SSLPeerUnverifiedException;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.security.cert.CertPathBuilderException;
import java.security.cert.CertPathValidatorException;
import java.security.cert.CertificateException;

/** Why no upstream answered, and what the client is told then; each answer is counted in {@link ProxyStats}. */
enum UpstreamFailure {
    UNREACHABLE, TIMEOUT, POOL_EXHAUSTED, BODY_TOO_LARGE,
    /** The client stopped sending the request body (an HTTP/2 stream past the body timeout). */
    BODY_TIMEOUT,
    /** The upstream's response broke HTTP's rules. */
    RESPONSE_MALFORMED,
    /** The upstream's response head was larger than the gateway reads (a line or the number of fields). */
    RESPONSE_HEAD_TOO_LARGE,
    /** A chunk of the request body, or a line of its framing, was larger than the gateway holds. */
    BODY_CHUNK_TOO_LARGE,
    /** The request body's chunked framing could not be parsed. */
    BODY_MALFORMED,
    /** The upstream's certificate does not chain to a trusted authority. */
    TLS_UNTRUSTED,
    /** The upstream's certificate is not for the name checked. */
    TLS_NAME_MISMATCH,
    /** The upstream ended the handshake with an alert (a client certificate it requires, say). */
    TLS_REFUSED,
    /** Any other TLS failure. */
    TLS_FAILED;

    /** A failure after the connection was made (or while leasing one): nothing more specific than the exception. */
    static UpstreamFailure of(IOException e) {
        if (e instanceof UpstreamExchange.PoolExhaustedException) {
            return POOL_EXHAUSTED;
        }
        if (e instanceof SocketTimeoutException) {
            return TIMEOUT;
        }
        if (e instanceof MessageConstraintException) {
            return RESPONSE_HEAD_TOO_LARGE;
        }
        if (e instanceof UpstreamExchange.MalformedResponseException) {
            return RESPONSE_MALFORMED;
        }
        UpstreamFailure tls = tls(e);
        return tls != null ? tls : UNREACHABLE;
    }

    /** What a TLS failure was, read from the exception and its causes; null when it was not one. */
    static @Nullable UpstreamFailure tls(Throwable e) {
        boolean ssl = false;
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof UpstreamTlsContext.ClientCertificateRefusedException) {
                return TLS_REFUSED;
            }
            if (t instanceof CertPathBuilderException || t instanceof CertPathValidatorException) {
                return TLS_UNTRUSTED;
            }
            if (t instanceof SSLPeerUnverifiedException) {
                return TLS_NAME_MISMATCH;
            }
            String message = t.getMessage() == null ? "" : t.getMessage();
            if (t instanceof CertificateException && (message.startsWith("No subject alternative")
                    || message.startsWith("No name matching"))) {
                return TLS_NAME_MISMATCH;
            }
            if (t instanceof SSLException) {
                ssl = true;
                if (message.startsWith("Received fatal alert")) {
                    return TLS_REFUSED;
                }
            }
        }
        return ssl ? TLS_FAILED : null;
    }

    /**
     * Whether the client's answer ends its connection: the rest of a body refused part-way (too large, a chunk too
     * large, malformed) is not read, so nothing after it on the connection could be taken for the next request.
     */
    boolean closesClientConnection() {
        return this == BODY_TOO_LARGE || this == BODY_CHUNK_TOO_LARGE || this == BODY_MALFORMED;
    }

    boolean isTls() {
        return this == TLS_UNTRUSTED || this == TLS_NAME_MISMATCH || this == TLS_REFUSED || this == TLS_FAILED;
    }

    /** The answer to the client, counted. */
    GatewayError answer(ProxyStats stats) {
        switch (this) {
            case TIMEOUT -> stats.gatewayTimeout.increment();
            case POOL_EXHAUSTED -> stats.poolExhausted.increment();
            case BODY_TOO_LARGE, BODY_CHUNK_TOO_LARGE, BODY_TIMEOUT, BODY_MALFORMED -> stats.badRequest.increment();
            default -> stats.badGateway.increment();
        }
        return error();
    }

    /** The answer to the client. */
    GatewayError error() {
        return switch (this) {
            case TIMEOUT -> GatewayError.GATEWAY_TIMEOUT;
            case POOL_EXHAUSTED -> GatewayError.POOL_EXHAUSTED;
            case BODY_TOO_LARGE -> GatewayError.BODY_TOO_LARGE;
            case BODY_TIMEOUT -> GatewayError.BODY_TIMEOUT;
            case BODY_MALFORMED -> GatewayError.BODY_MALFORMED;
            case BODY_CHUNK_TOO_LARGE -> GatewayError.BODY_CHUNK_TOO_LARGE;
            case RESPONSE_HEAD_TOO_LARGE -> GatewayError.RESPONSE_HEAD_TOO_LARGE;
            case RESPONSE_MALFORMED -> GatewayError.RESPONSE_MALFORMED;
            case UNREACHABLE -> GatewayError.BAD_GATEWAY;
            case TLS_UNTRUSTED -> GatewayError.TLS_UNTRUSTED;
            case TLS_NAME_MISMATCH -> GatewayError.TLS_NAME_MISMATCH;
            case TLS_REFUSED -> GatewayError.TLS_REFUSED;
            case TLS_FAILED -> GatewayError.TLS_FAILED;
        };
    }
}
