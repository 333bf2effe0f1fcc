package io.pylon.integration.web;

import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/** Request bodies read with a bound: a larger one is refused with 413 before it is held. */
final class Bodies {
    private Bodies() {
    }

    static byte[] read(ServerRequest req, int max) {
        long declared = req.headers().contentLength().orElse(-1L);
        if (declared > max) {
            throw tooLarge(max);
        }
        if (!req.content().hasEntity()) {
            return new byte[0];
        }
        try (InputStream in = req.content().inputStream()) {
            byte[] body = in.readNBytes(max + 1);
            if (body.length > max) {
                throw tooLarge(max);
            }
            return body;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static ApiError tooLarge(int max) {
        return new ApiError(Status.REQUEST_ENTITY_TOO_LARGE_413, "invalid_request",
                "The request body exceeds " + max + " bytes.");
    }
}
