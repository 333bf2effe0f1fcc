package io.pylon.core.http;

import io.helidon.http.Status;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/** The sentence an error body gives for each reason Helidon's parser refuses a request with; its own text never. */
class RefusalReasonsTest {
    /**
     * Each known reason has its sentence and the parser's text is not repeated. Helidon's message quotes the client's
     * target: a fragment inside what the client sent ({@code script}, {@code chunk}, {@code ip}) decides nothing.
     */
    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            Only a single Host header is allowed in request | The request has more than one Host header; send exactly one.
            Transfer-Encoding and Content-Length headers must not be combined | The request has both Content-Length and Transfer-Encoding; send one of them.
            Unsupported request transfer encoding | Transfer-Encoding must be exactly 'chunked'.
            io.helidon.http.RequestException: Character at position 2 of the header value is invalid for header '<x>' | A header value holds a control character (NUL, say).
            'Query contains invalid char: q=<script>chunked-protocol, index: 2, char: 0x3c' | The query holds a character that must be percent-encoded, or a malformed percent-encoding.
            'Invalid path: Path contains invalid char: /chunk/ip[1], index: 9, char: 0x5b' | The path holds a character that must be percent-encoded, or a malformed percent-encoding.
            'Invalid Host header: Host contains invalid char: a b' | The Host header is not a valid host name or address with an optional port.
            'Invalid port of the host header: 99x' | The Host header is not a valid host name or address with an optional port.
            something about a script | Bad Request
            """)
    void eachKnownReasonHasItsSentenceWhateverTheClientsBytesSay(String message, String sentence) {
        assertThat(RefusalReasons.describe(Status.BAD_REQUEST_400, message)).isEqualTo(sentence).doesNotContain("<x>");
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
