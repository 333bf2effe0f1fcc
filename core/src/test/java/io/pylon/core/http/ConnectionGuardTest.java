package io.pylon.core.http;

import io.pylon.core.server.Pod;
import io.pylon.core.testing.FakeModule;
import io.pylon.core.testing.RawWire;
import io.pylon.core.testing.TestPods;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Request smuggling on a real pod, raw bytes on a socket: a body the handler never read must not run as a second
 * request, whatever the status, and Connection: close always closes.
 */
class ConnectionGuardTest {
    /** What a proxy in front would never let through; it must not come back as a second response. */
    private static final String SMUGGLED = "GET /platform/management/version HTTP/1.1\r\nHost: x\r\n\r\n";
    private static Pod pod;

    @BeforeAll
    static void start() {
        pod = TestPods.start(new FakeModule("guard").onStart(ctx -> ctx.routes()
                .post("/refuse/401", (req, res) -> res.status(401).send("{}"))
                .post("/refuse/413", (req, res) -> res.status(413).send("{}"))
                .post("/refuse/415", (req, res) -> res.status(415).send("{}"))
                .post("/throw/401", (req, res) -> {
                    throw new io.helidon.http.UnauthorizedException("no");
                })
                .post("/echo", (req, res) -> res.send(req.content().as(String.class)))));
    }

    @AfterAll
    static void stop() {
        pod.close();
    }

    @ParameterizedTest
    @CsvSource({"/refuse/401,401", "/throw/401,401", "/nothing,404", "/platform/management/health,405",
            "/refuse/413,413", "/refuse/415,415"})
    void anUnreadBodyWithConnectionCloseIsNeverASecondRequest(String path, int status) throws IOException {
        RawWire.Exchange exchange = send("POST " + path + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
                + "Content-Type: text/plain\r\nContent-Length: " + SMUGGLED.length() + "\r\n\r\n" + SMUGGLED);

        assertThat(exchange.only().status()).isEqualTo(status);
        assertThat(exchange.only().header("connection")).isEqualTo("close");
        assertThat(exchange.closed()).as("EOF after the one response").isTrue();
    }

    @ParameterizedTest
    @CsvSource({"/refuse/401,401", "/nothing,404", "/platform/management/health,405"})
    void anUnreadSmallBodyIsDrainedAndTheNextRequestIsTheClientsOwn(String path, int status) throws IOException {
        String body = "{\"a\":1}";
        RawWire.Exchange exchange = send("POST " + path + " HTTP/1.1\r\nHost: x\r\nContent-Length: " + body.length()
                + "\r\n\r\n" + body + "GET /platform/management/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");

        assertThat(exchange.responses()).extracting(RawWire.Response::status).containsExactly(status, 200);
        assertThat(exchange.closed()).isTrue();
    }

    @Test
    void aBodyBeyondTheDrainLimitClosesTheConnection() throws IOException {
        int length = ConnectionGuard.DRAIN_LIMIT + 10_000;
        String request = "POST /nothing HTTP/1.1\r\nHost: x\r\nContent-Length: " + length + "\r\n\r\n"
                + "x".repeat(length - SMUGGLED.length()) + SMUGGLED;

        RawWire.Exchange exchange = send(request);

        assertThat(exchange.only().status()).isEqualTo(404);
        assertThat(exchange.closed()).isTrue();
    }

    @Test
    void connectionCloseWithoutABodyCloses() throws IOException {
        RawWire.Exchange exchange = send("GET /platform/management/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
                + SMUGGLED);

        assertThat(exchange.only().status()).isEqualTo(200);
        assertThat(exchange.closed()).isTrue();
    }

    @Test
    void aReadBodyKeepsTheConnection() throws IOException {
        RawWire.Exchange exchange = send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello" + SMUGGLED);

        assertThat(exchange.responses()).extracting(RawWire.Response::body).first().isEqualTo("hello");
        assertThat(exchange.responses()).hasSize(2); // the client's own pipelined second request
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "3;name=value\r\nabc\r\n0\r\n\r\n",
            "3\r\nabc\r\n0\r\nX-Trailer: 1\r\n\r\n",
            "zz\r\nabc\r\n0\r\n\r\n",
            "3\rX\r\nabc\r\n0\r\n\r\n"})
    void chunkedBodiesAreRefusedWith411AndTheConnectionCloses(String chunks) throws IOException {
        RawWire.Exchange exchange = send("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                + chunks + SMUGGLED);

        assertThat(exchange.only().status()).isEqualTo(411);
        assertThat(exchange.only().body()).contains("Content-Length");
        assertThat(exchange.closed()).isTrue();
    }

    @Test
    void twoAuthorizationHeadersAre400NamingTheProblem() throws IOException {
        RawWire.Exchange exchange = send("GET /platform/management/health HTTP/1.1\r\nHost: x\r\n"
                + "Authorization: a\r\nAuthorization: b\r\n\r\n");

        assertThat(exchange.only().status()).isEqualTo(400);
        assertThat(exchange.only().body()).contains("2 Authorization headers");
        assertThat(exchange.closed()).isTrue();
    }

    private static RawWire.Exchange send(String request) throws IOException {
        return RawWire.send("127.0.0.1", pod.port(), request);
    }
}
