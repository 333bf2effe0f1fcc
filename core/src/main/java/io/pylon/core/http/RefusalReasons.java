package io.pylon.core.http;

import io.helidon.http.Status;
import org.jspecify.annotations.Nullable;

import java.util.List;
import java.util.Locale;

/**
 * What the error body says of a request the HTTP/1 parser refused before routing: a fixed sentence for each reason
 * Helidon 4.5 gives (its text, which may quote the client's bytes, is matched and never sent), else the status's
 * reason phrase. A client then learns which part of its request to fix: two Host headers, a Content-Length beside a
 * Transfer-Encoding, a header line without a colon.
 */
final class RefusalReasons {
    private record Reason(String fragment, String description) {
    }

    static final String CODED_BODY = "The request has a Content-Encoding (gzip, say); this endpoint takes bodies "
            + "without one.";

    private static final String QUERY = "The query holds a character that must be percent-encoded, or a malformed "
            + "percent-encoding.";
    private static final String HOST = "The Host header is not a valid host name or address with an optional port.";

    // most specific first: the first fragment the parser's message contains decides
    private static final List<Reason> REASONS = List.of(
            new Reason("content-encoding header present", CODED_BODY),
            // these messages go on to quote the client's target, which may hold any later fragment: they come first
            new Reason("invalid path", "The path holds a character that must be percent-encoded, or a malformed "
                    + "percent-encoding."),
            new Reason("query contains", QUERY),
            new Reason("query has", QUERY),
            new Reason(Http10Request.TRANSFER_CODED_HTTP_1_0.toLowerCase(Locale.ROOT), "An HTTP/1.0 request cannot "
                    + "have Transfer-Encoding (HTTP/1.1's); send its body with Content-Length, or send HTTP/1.1."),
            new Reason("transfer-encoding and content-length",
                    "The request has both Content-Length and Transfer-Encoding; send one of them."),
            new Reason("content length is not a number",
                    "Content-Length must be sent once, as one non-negative decimal number."),
            new Reason("content-length header must have exactly one value",
                    "Content-Length must be sent once, as one non-negative decimal number."),
            new Reason("transfer-encoding", "Transfer-Encoding must be exactly 'chunked'."),
            new Reason("transfer encoding", "Transfer-Encoding must be exactly 'chunked'."),
            new Reason("only a single host", "The request has more than one Host header; send exactly one."),
            new Reason("host header must be present", "The request has no Host header; HTTP/1.1 requires one."),
            new Reason("host header must not be empty", "The Host header is empty."),
            new Reason("chunk", "The chunked request body is malformed."),
            new Reason("token contains", "A header name or the method holds a character HTTP does not allow there "
                    + "(a space before a header's colon, say)."),
            new Reason("without following lf", "A header line holds a CR that is not followed by LF."),
            new Reason("of the header value is invalid", "A header value holds a control character (NUL, say)."),
            new Reason("missing colon", "A header line has no colon between its name and its value."),
            new Reason("header size exceeded", "The request's header block is too large."),
            new Reason("uri too long", "The request line is too long."),
            new Reason("prologue", "The request line must be a method, a target and HTTP/1.1, separated by single spaces."),
            new Reason("protocol", "The request line must end in HTTP/1.1 (or HTTP/1.0)."),
            new Reason("path can't be empty", "The request target is empty."),
            new Reason("invalid host header", HOST),
            new Reason("port of the host header", HOST));

    private RefusalReasons() {
    }

    /** The description for a refusal answered with {@code status}, from the parser's {@code message} when known. */
    static String describe(Status status, @Nullable String message) {
        if (status.code() == 431) {
            return "The request's header block is too large.";
        }
        if (status.code() == 414) {
            return "The request line is too long.";
        }
        if (message != null) {
            String m = message.toLowerCase(Locale.ROOT);
            for (Reason reason : REASONS) {
                if (m.contains(reason.fragment())) {
                    return reason.description();
                }
            }
        }
        return status.reasonPhrase();
    }
}
