package io.pylon.worker.proxy;

import io.helidon.webserver.CloseConnectionException;

/**
 * The client left before its answer ended (it closed or reset its connection, or reset its HTTP/2 stream): the request
 * ends without an answer and its connection closes. Counted in the proxy's {@code clientAborted} when made; recorded
 * as {@link #STATUS} where a request's outcome is kept (an application's usage), as nginx logs it.
 */
final class ClientGoneException extends CloseConnectionException {
    /** nginx's "client closed request": a client error, not the upstream's or the gateway's. */
    static final int STATUS = 499;

    private ClientGoneException(String message, Throwable cause) {
        super(message, cause);
    }

    private ClientGoneException(String message) {
        super(message);
    }

    /** Counts the abort and says when the client left ({@code when}: "before the answer", say). */
    static ClientGoneException counted(ProxyStats stats, String when, Throwable cause) {
        stats.clientAborted.increment();
        return new ClientGoneException("client went away " + when, cause);
    }

    static ClientGoneException counted(ProxyStats stats, String when) {
        stats.clientAborted.increment();
        return new ClientGoneException("client went away " + when);
    }
}
