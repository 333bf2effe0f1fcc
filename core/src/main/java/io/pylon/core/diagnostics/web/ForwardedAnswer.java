package io.pylon.core.diagnostics.web;

import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerResponse;
import io.pylon.core.broadcast.PeerClient;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.util.List;

/**
 * Passes another pod's answer on as it comes (a heap dump too), status and content headers included, never held
 * whole when it is large.
 */
final class ForwardedAnswer {
    private static final System.Logger LOG = System.getLogger(ForwardedAnswer.class.getName());
    /** Response headers passed on from the other pod. */
    private static final List<HeaderName> PASSED_ON = List.of(HeaderNames.CONTENT_TYPE, HeaderNames.CONTENT_DISPOSITION,
            HeaderNames.CACHE_CONTROL, HeaderNames.RETRY_AFTER, HeaderNames.CONTENT_LENGTH);
    /** Answers up to this size (and of known size) are passed on in one piece, larger ones streamed. */
    private static final long SENT_WHOLE = 1024 * 1024;

    private ForwardedAnswer() {
    }

    static void relay(PeerClient.Response answer, String name, String pod, ServerResponse res) throws IOException {
        try (answer) {
            InputStream body = answer.body();
            res.status(Status.create(answer.status()));
            for (HeaderName header : PASSED_ON) {
                answer.header(header.defaultCase()).ifPresent(value -> res.header(header, value));
            }
            long length = answer.header(HeaderNames.CONTENT_LENGTH.defaultCase()).map(Long::parseLong).orElse(-1L);
            if (length >= 0 && length <= SENT_WHOLE) {
                // one write of headers and body with a Content-Length, rather than a chunked stream
                res.send(body.readNBytes((int) length));
                return;
            }
            try (OutputStream out = res.outputStream()) {
                body.transferTo(out);
            } catch (IOException | UncheckedIOException e) {
                // the status is sent already: all that is left is to cut the answer short, and say why in the log
                LOG.log(Level.WARNING, "Passing on " + name + " from pod " + pod + " failed: " + e.getClass().getSimpleName());
                throw e;
            }
        }
    }
}
