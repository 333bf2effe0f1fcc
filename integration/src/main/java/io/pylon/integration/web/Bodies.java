package io.pylon.integration.web;

import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import io.pylon.core.http.BoundedBody;

/** Request bodies read with a bound: a larger one is refused with 413 before it is held. */
final class Bodies {
    private Bodies() {
    }

    static byte[] read(ServerRequest req, int max) {
        return BoundedBody.read(req, max, Bodies::tooLarge);
    }

    private static ApiError tooLarge(int max) {
        return new ApiError(Status.REQUEST_ENTITY_TOO_LARGE_413, "invalid_request",
                "The request body exceeds " + max + " bytes.");
    }
}
