package io.pylon.worker.proxy;

import java.io.IOException;
import java.net.SocketTimeoutException;

/** Why no upstream answered, and what the client is told then; each answer is counted in {@link ProxyStats}. */
enum UpstreamFailure {
    UNREACHABLE, TIMEOUT, POOL_EXHAUSTED, BODY_TOO_LARGE;

    /** A failure after the connection was made (or while leasing one): nothing more specific than the exception. */
    static UpstreamFailure of(IOException e) {
        if (e instanceof UpstreamExchange.PoolExhaustedException) {
            return POOL_EXHAUSTED;
        }
        if (e instanceof SocketTimeoutException) {
            return TIMEOUT;
        }
        return UNREACHABLE;
    }

    /** The answer to the client, counted. */
    GatewayError answer(ProxyStats stats) {
        return switch (this) {
            case TIMEOUT -> {
                stats.gatewayTimeout.increment();
                yield GatewayError.GATEWAY_TIMEOUT;
            }
            case POOL_EXHAUSTED -> {
                stats.poolExhausted.increment();
                yield GatewayError.POOL_EXHAUSTED;
            }
            case BODY_TOO_LARGE -> {
                stats.badRequest.increment();
                yield GatewayError.BODY_TOO_LARGE;
            }
            case UNREACHABLE -> {
                stats.badGateway.increment();
                yield GatewayError.BAD_GATEWAY;
            }
        };
    }
}
