package io.pylon.core.http;

import io.helidon.webserver.http.ServerRequest;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.function.IntFunction;

/**
 * A request body read with a bound: a body declared or found larger is refused (with the caller's own 413 error)
 * before more than the bound plus one byte is held. Stateless.
 */
public final class BoundedBody {
    private BoundedBody() {
    }

    /**
     * The body, empty when there is none.
     *
     * @param tooLarge the error to throw for a body larger than {@code max} bytes, given {@code max}
     */
    public static byte[] read(ServerRequest req, int max, IntFunction<? extends RuntimeException> tooLarge) {
        long declared = req.headers().contentLength().orElse(-1L);
        if (declared > max) {
            throw tooLarge.apply(max);
        }
        if (!req.content().hasEntity()) {
            return new byte[0];
        }
        try (InputStream in = req.content().inputStream()) {
            byte[] body = in.readNBytes(max + 1);
            if (body.length > max) {
                throw tooLarge.apply(max);
            }
            return body;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
