package io.pylon.gateway.model;

/**
 * A proxy definition or bundle that cannot be used; the message names the proxy and the field, and {@link #field()}
 * the field alone (a JSON-pointer-like dotted path such as {@code rateLimit.requests}), null when the problem is the
 * document as a whole.
 */
public final class InvalidProxyException extends Exception {
    private final String proxy;
    private final String field;

    public InvalidProxyException(String message) {
        this(message, null, null);
    }

    public InvalidProxyException(String message, String proxy, String field) {
        super(message);
        this.proxy = proxy;
        this.field = field;
    }

    /** The name of the proxy at fault, null when unknown or when the whole document is at fault. */
    public String proxy() {
        return proxy;
    }

    public String field() {
        return field;
    }
}
