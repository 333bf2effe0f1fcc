package io.pylon.worker.proxy;

import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpResponse;
import org.apache.hc.core5.http.ProtocolException;
import org.jspecify.annotations.Nullable;

/**
 * Whether an upstream's response head can be passed on: every field name a token, every value free of control
 * characters but HTAB (RFC 9110, 5.1 and 5.5; bytes outside ASCII are obs-text and pass). HttpCore's parser takes a
 * name with a space in it and a value with a NUL or a bare CR; Helidon refuses to write them, and the client got a 400
 * for the upstream's fault, its connection closed, and two SEVERE log lines with stack traces. nginx answers such an
 * upstream 502, as the Worker now does. Stateless.
 */
final class UpstreamHead {
    private UpstreamHead() {
    }

    /** Throws, naming the fault, when a field of {@code response} cannot be passed on. */
    static void check(HttpResponse response) throws ProtocolException {
        for (Header header : response.getHeaders()) {
            String name = header.getName();
            if (!HttpToken.is(name)) {
                throw new ProtocolException("a header field name holds a character a token cannot hold");
            }
            String value = header.getValue();
            if (value != null && holdsControl(value)) {
                throw new ProtocolException("the value of header field " + name + " holds a control character");
            }
        }
    }

    /**
     * The reason phrase of {@code response} to pass on, as nginx passes it ({@code 422 Validation Failed}); null when
     * it has none or holds what a status line cannot carry as Helidon writes it (a control character, bytes outside
     * ASCII), and the standard phrase goes instead.
     */
    static @Nullable String reasonPhrase(HttpResponse response) {
        String reason = response.getReasonPhrase();
        if (reason == null || reason.isEmpty()) {
            return null;
        }
        for (int i = 0; i < reason.length(); i++) {
            char c = reason.charAt(i);
            if (c < ' ' && c != '\t' || c >= 0x7F) {
                return null;
            }
        }
        return reason;
    }

    private static boolean holdsControl(String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < ' ' && c != '\t' || c == 0x7F) {
                return true;
            }
        }
        return false;
    }
}
