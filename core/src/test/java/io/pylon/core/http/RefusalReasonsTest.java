package io.pylon.core.http;

import io.helidon.http.Status;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The sentence an error body gives for each reason Helidon's parser refuses a request with; its own text never. */
class RefusalReasonsTest {
    @Test
    void eachKnownReasonHasItsSentenceAndTheParsersTextIsNotRepeated() {
        assertThat(RefusalReasons.describe(Status.BAD_REQUEST_400, "Only a single Host header is allowed in request"))
                .isEqualTo("The request has more than one Host header; send exactly one.");
        assertThat(RefusalReasons.describe(Status.BAD_REQUEST_400,
                "Transfer-Encoding and Content-Length headers must not be combined"))
                .isEqualTo("The request has both Content-Length and Transfer-Encoding; send one of them.");
        assertThat(RefusalReasons.describe(Status.BAD_REQUEST_400, "Unsupported request transfer encoding"))
                .isEqualTo("Transfer-Encoding must be exactly 'chunked'.");
        assertThat(RefusalReasons.describe(Status.BAD_REQUEST_400,
                "io.helidon.http.RequestException: Character at position 2 of the header value is invalid for header '<x>'"))
                .isEqualTo("A header value holds a control character (NUL, say).").doesNotContain("<x>");
    }

    /** Helidon's message quotes the client's target: a fragment inside what the client sent decides nothing. */
    @Test
    void targetsAndHostsAreNamedWhateverTheClientsBytesSay() {
        assertThat(RefusalReasons.describe(Status.BAD_REQUEST_400,
                "Query contains invalid char: q=<script>chunked-protocol, index: 2, char: 0x3c"))
                .isEqualTo("The query holds a character that must be percent-encoded, or a malformed percent-encoding.");
        assertThat(RefusalReasons.describe(Status.BAD_REQUEST_400,
                "Invalid path: Path contains invalid char: /chunk/ip[1], index: 9, char: 0x5b"))
                .isEqualTo("The path holds a character that must be percent-encoded, or a malformed percent-encoding.");
        assertThat(RefusalReasons.describe(Status.BAD_REQUEST_400, "Invalid Host header: Host contains invalid char: a b"))
                .isEqualTo("The Host header is not a valid host name or address with an optional port.");
        assertThat(RefusalReasons.describe(Status.BAD_REQUEST_400, "Invalid port of the host header: 99x"))
                .isEqualTo("The Host header is not a valid host name or address with an optional port.");
        assertThat(RefusalReasons.describe(Status.BAD_REQUEST_400, "something about a script")).isEqualTo("Bad Request");
    }

    @Test
    void sizesSayWhichPartIsTooLargeAndUnknownReasonsGetTheStatusPhrase() {
        assertThat(RefusalReasons.describe(Status.create(431, "Request Header Fields Too Large"), null))
                .isEqualTo("The request's header block is too large.");
        assertThat(RefusalReasons.describe(Status.REQUEST_URI_TOO_LONG_414, "whatever"))
                .isEqualTo("The request line is too long.");
        assertThat(RefusalReasons.describe(Status.BAD_REQUEST_400, "something new")).isEqualTo("Bad Request");
        assertThat(RefusalReasons.describe(Status.BAD_REQUEST_400, null)).isEqualTo("Bad Request");
    }
}
