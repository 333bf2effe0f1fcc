package io.pylon.core.logging;

import io.helidon.http.HeaderNames;
import io.pylon.core.server.Pod;
import io.pylon.core.testing.FakeModule;
import io.pylon.core.testing.RawWire;
import io.pylon.core.testing.TestPods;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.logging.StreamHandler;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A real pod's log output, captured through the pod's formatter while clients put line breaks where they can: a chunk
 * size, a (percent-encoded) path and query, a header value. No captured line may start with the forged text.
 */
class LogForgingTest {
    private static final String FORGED = "2026-11-23T05:00:00.000 INFO    audit action=token.issued";
    private static final ByteArrayOutputStream captured = new ByteArrayOutputStream();
    private static StreamHandler handler;
    private static Pod pod;
    private static final Logger ROOT = Logger.getLogger("");
    private static final Logger PYLON = Logger.getLogger("io.pylon");

    @BeforeAll
    static void start() {
        handler = new StreamHandler(captured, new EscapingFormatter());
        handler.setLevel(Level.ALL);
        ROOT.addHandler(handler);
        PYLON.setLevel(Level.FINE);
        System.Logger log = System.getLogger("io.pylon.test.forging");
        pod = TestPods.start(new FakeModule("forging").acceptingChunkedRequests().onStart(ctx -> ctx.routes()
                .get("/logged", (req, res) -> {
                    log.log(System.Logger.Level.INFO, "query " + req.query().first("q").orElse("")
                            + " agent " + req.headers().first(HeaderNames.USER_AGENT).orElse(""));
                    res.send("ok");
                })
                .post("/upload", (req, res) -> res.send(req.content().as(String.class)))));
    }

    @AfterAll
    static void stop() {
        pod.close();
        ROOT.removeHandler(handler);
        PYLON.setLevel(null);
    }

    @Test
    void noRequestCanStartALogLine() throws IOException {
        String crlf = "%0d%0a" + FORGED.replace(" ", "%20");
        send("GET /logged?q=x" + crlf + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        send("GET /logged?q=y HTTP/1.1\r\nHost: x\r\nUser-Agent: a\u001b[1Ab\u0085c\r\nConnection: close\r\n\r\n");
        send("GET /nothing" + crlf + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        send("POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r" + FORGED + "\r\nabc\r\n0\r\n\r\n");
        send("POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3;" + FORGED + "\r\nabc\r\n0\r\n\r\n");
        send("GET /platform/management/health HTTP/1.1\r\nHost: x\r\nX-Forged: a\rb\r\n\r\n");
        handler.flush();

        String output = captured.toString(StandardCharsets.UTF_8);
        assertThat(output).as("the query was logged, escaped").contains("query x\\r\\n" + FORGED);
        assertThat(output).doesNotContain("\u001b", "\u0085");
        assertThat(output.split("\n")).noneMatch(line -> line.startsWith(FORGED) || line.contains("\r"));
    }

    private static void send(String request) throws IOException {
        RawWire.Exchange exchange = RawWire.send("127.0.0.1", pod.port(), request.getBytes(StandardCharsets.UTF_8), 1500);
        exchange.responses().forEach(r -> assertThat(r.status()).as(request).isLessThan(500));
    }
}
