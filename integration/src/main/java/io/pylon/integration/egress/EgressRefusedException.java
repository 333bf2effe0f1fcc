package io.pylon.integration.egress;

import java.net.UnknownHostException;

/**
 * A step's request to a host the egress allow-list does not allow. An {@link UnknownHostException} because the HTTP
 * client's resolver may throw only that; a step never retries it.
 */
public final class EgressRefusedException extends UnknownHostException {
    public EgressRefusedException(String message) {
        super(message);
    }

    /** The message it was built with (never null, unlike a throwable's in general). */
    @Override
    public String getMessage() {
        return java.util.Objects.requireNonNull(super.getMessage());
    }
}
