package io.pylon.core.http;

import io.pylon.core.server.Pod;
import io.pylon.core.testing.FakeModule;
import io.pylon.core.testing.RawWire;
import io.pylon.core.testing.TestPods;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;

import static org.assertj.core.api.Assertions.assertThat;

/** Requests the parser chokes on are the client's error: a JSON 4xx, never a 5xx (cases the fuzzer found). */
class MalformedRequestTest {
    private static Pod pod;

    @BeforeAll
    static void start() {
        pod = TestPods.start(new FakeModule("malformed").acceptingChunkedRequests().onStart(ctx -> ctx.routes()
                .post("/upload", (req, res) -> res.send(req.content().as(String.class)))));
    }

    @AfterAll
    static void stop() {
        pod.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "G\u0000T /platform/management/health HTTP/1.1\r\nHost: x\r\n\r\n",
            "GET\u00cd-api\u00ecps/me HTTP/1.1\r\n\u0003ost: pod\r\n\r\n",
            "POST /platform/x HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n",
            "POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n",
            "POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n3\r\nabc\r\n0\r\n\r\n",
            "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\nabc",
            "GET /platform/management/health HTTP/1.1\r\nHost: x\r\nX-A: a\u0000b\r\n\r\n",
            "GET /platform/management/health HTTP/1.1\r\nHost: x\r\n folded\r\n\r\n",
            "GET /%zz HTTP/1.1\r\nHost: x\r\n\r\n"})
    void isAnsweredWithA4xx(String request) throws IOException {
        RawWire.Exchange exchange = RawWire.send("127.0.0.1", pod.port(), request);

        assertThat(exchange.responses()).isNotEmpty();
        assertThat(exchange.responses().getFirst().status()).as(request).isBetween(400, 499);
        assertThat(exchange.responses().getFirst().header("content-type")).startsWith("application/json");
    }

    /** A pod that checks request targets by RFC 3986 (all but the Worker) says which part it refused. */
    @ParameterizedTest
    @CsvSource(delimiter = '\u00a6', value = {
            "/platform/management/health?filter[a]=1 ¦ The query holds a character that must be percent-encoded",
            "/platform/management/health?q=50%off ¦ The query holds a character that must be percent-encoded",
            "/platform/a{b} ¦ The path holds a character that must be percent-encoded",
            "/%zz ¦ The path holds a character that must be percent-encoded"})
    void aTargetOutsideRfc3986IsRefusedNamingThePart(String target, String description) throws IOException {
        RawWire.Exchange exchange = RawWire.send("127.0.0.1", pod.port(), "GET " + target.strip() + " HTTP/1.1\r\nHost: x\r\n\r\n");

        assertThat(exchange.only().status()).isEqualTo(400);
        assertThat(exchange.only().body()).contains(description.strip());
    }
}
