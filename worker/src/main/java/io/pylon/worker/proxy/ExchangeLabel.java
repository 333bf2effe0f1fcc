package io.pylon.worker.proxy;

import org.jspecify.annotations.Nullable;

/**
 * What the diagnostics say of a proxied request while its exchange is in flight ({@link ResponseTimeouts#describe}):
 * its route, method, path without the query (a query may hold a key or a token, as in the access log) and its
 * {@link RequestId}. Made once a request, before its first attempt. Immutable.
 */
record ExchangeLabel(String route, String method, String path, @Nullable String requestId) {
}
