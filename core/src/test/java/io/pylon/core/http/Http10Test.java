package io.pylon.core.http;

import io.pylon.core.server.Pod;
import io.pylon.core.testing.FakeModule;
import io.pylon.core.testing.RawWire;
import io.pylon.core.testing.TestPods;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * HTTP/1.0 clients (health checkers, nginx's default upstream protocol) get an answer; the connection closes after
 * it unless the client asked for keep-alive, as nginx does.
 */
class Http10Test {
    private static Pod pod;

    @BeforeAll
    static void start() {
        pod = TestPods.start(new FakeModule("old-clients"));
    }

    @AfterAll
    static void stop() {
        pod.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "Host: old\r\n", "Connection: close\r\n"})
    void getIsAnsweredAndTheConnectionCloses(String headers) throws IOException {
        RawWire.Exchange exchange = RawWire.send("127.0.0.1", pod.port(),
                "GET /platform/management/health HTTP/1.0\r\n" + headers + "\r\n"
                        + "GET /platform/management/version HTTP/1.0\r\n\r\n");

        assertThat(exchange.only().status()).isEqualTo(200);
        assertThat(exchange.only().body()).contains("\"status\":\"UP\"");
        assertThat(exchange.only().header("connection")).isEqualTo("close");
        assertThat(exchange.only().header("transfer-encoding")).isNull();
        assertThat(exchange.closed()).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"Connection: keep-alive\r\n", "Host: a\r\nconnection: Keep-Alive\r\n"})
    void keepAliveIsHonouredUntilARequestWithoutIt(String headers) throws IOException {
        RawWire.Exchange exchange = RawWire.send("127.0.0.1", pod.port(),
                "GET /platform/management/health HTTP/1.0\r\n" + headers + "\r\n"
                        + "GET /nothing HTTP/1.0\r\n" + headers + "\r\n"
                        + "GET /platform/management/version HTTP/1.0\r\n" + headers + "\r\n"
                        + "GET /platform/management/health HTTP/1.0\r\n\r\n"
                        + "GET /platform/management/version HTTP/1.0\r\n\r\n");

        assertThat(exchange.responses()).hasSize(4);
        for (RawWire.Response response : exchange.responses().subList(0, 3)) {
            assertThat(response.header("connection")).isEqualTo("keep-alive");
            assertThat(response.header("content-length")).isNotNull();
            assertThat(response.header("transfer-encoding")).isNull();
        }
        assertThat(exchange.responses().get(0).body()).contains("\"status\":\"UP\"");
        assertThat(exchange.responses().get(1).status()).isEqualTo(404);
        assertThat(exchange.responses().get(2).body()).contains("version");
        assertThat(exchange.responses().get(3).header("connection")).isEqualTo("close");
        assertThat(exchange.closed()).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "Connection: keep-alive\r\n"})
    void headIsAnsweredWithoutABody(String headers) throws IOException {
        RawWire.Exchange exchange = RawWire.send("127.0.0.1", pod.port(),
                "HEAD /platform/management/version HTTP/1.0\r\n" + headers + "\r\n");

        assertThat(exchange.responses()).hasSize(1);
        assertThat(exchange.responses().getFirst().status()).isEqualTo(200);
        assertThat(exchange.closed()).isEqualTo(headers.isEmpty());
    }

    @ParameterizedTest
    @ValueSource(strings = {"/nothing", "/platform/management/nothing"})
    void errorsAreAnsweredToo(String path) throws IOException {
        RawWire.Exchange exchange = RawWire.send("127.0.0.1", pod.port(), "GET " + path + " HTTP/1.0\r\n\r\n");

        assertThat(exchange.only().status()).isEqualTo(404);
        assertThat(exchange.closed()).isTrue();
    }

    /** RFC 9112 section 6.1: an HTTP/1.0 message with Transfer-Encoding has faulty framing; nginx refuses it too. */
    @ParameterizedTest
    @ValueSource(strings = {"", "Connection: keep-alive\r\n", "Content-Length: 5\r\n"})
    void aTransferEncodingIsRefusedAndNothingAfterItIsRead(String headers) throws IOException {
        RawWire.Exchange exchange = RawWire.send("127.0.0.1", pod.port(),
                "POST /platform/management/health HTTP/1.0\r\n" + headers + "Transfer-Encoding: chunked\r\n\r\n"
                        + "0\r\n\r\nGET /platform/management/version HTTP/1.0\r\n\r\n");

        assertThat(exchange.only().status()).isEqualTo(400);
        assertThat(exchange.only().header("content-type")).startsWith("application/json");
        assertThat(exchange.only().body()).contains("An HTTP/1.0 request cannot have Transfer-Encoding");
        assertThat(exchange.closed()).isTrue();
    }
}
