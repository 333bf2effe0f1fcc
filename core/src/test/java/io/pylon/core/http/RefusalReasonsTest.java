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
