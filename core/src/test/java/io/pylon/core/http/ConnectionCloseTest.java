package io.pylon.core.http;

import io.helidon.http.HeaderNames;
import io.helidon.http.WritableHeaders;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Connection: close found as a token of any Connection header, as Helidon's containsToken finds it. */
class ConnectionCloseTest {
    @Test
    void closeIsATokenInAnyCaseAndPlace() {
        assertThat(ConnectionClose.in(headers("close"))).isTrue();
        assertThat(ConnectionClose.in(headers("Keep-Alive, CLOSE"))).isTrue();
        assertThat(ConnectionClose.in(headers(" \tclose ,x-private"))).isTrue();
        assertThat(ConnectionClose.in(headers("keep-alive", "close"))).isTrue();
    }

    @Test
    void noConnectionHeaderOrNoCloseTokenIsNoClose() {
        assertThat(ConnectionClose.in(WritableHeaders.create())).isFalse();
        assertThat(ConnectionClose.in(headers("keep-alive"))).isFalse();
        assertThat(ConnectionClose.in(headers("closed, enclose"))).isFalse();
        assertThat(ConnectionClose.in(headers(""))).isFalse();
    }

    private static WritableHeaders<?> headers(String... values) {
        WritableHeaders<?> headers = WritableHeaders.create();
        headers.add(HeaderNames.CONNECTION, values);
        return headers;
    }
}
