package io.pylon.gateway.model;

import org.jspecify.annotations.Nullable;

/**
 * A proxy definition or bundle that cannot be used; the message names the proxy and the field, and {@link #field()}
 * the field alone (a JSON-pointer-like dotted path such as {@code rateLimit.requests}), null when the problem is the
 * document as a whole.
 */
public final class InvalidProxyException extends Exception {
    private final @Nullable String proxy;
    private final @Nullable String field;

    public InvalidProxyException(String message) {
        this(message, null, null);
    }

    public InvalidProxyException(String message, @Nullable String proxy, @Nullable String field) {
        super(message);
        this.proxy = proxy;
        this.field = field;
    }

    /** The message it was built with (never null, unlike a throwable's in general). */
    @Override
    public String getMessage() {
        return java.util.Objects.requireNonNull(super.getMessage());
    }

    /** The name of the proxy at fault, null when unknown or when the whole document is at fault. */
    public @Nullable String proxy() {
        return proxy;
    }

    public @Nullable String field() {
        return field;
    }
}
