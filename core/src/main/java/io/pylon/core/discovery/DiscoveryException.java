package io.pylon.core.discovery;

/** Discovery could not say which pods exist; the message is safe to show to a caller. */
public final class DiscoveryException extends Exception {
    public DiscoveryException(String message) {
        super(message);
    }

    public DiscoveryException(String message, Throwable cause) {
        super(message, cause);
    }
}
