package io.pylon.worker.listener;

import io.pylon.worker.testing.Gateway;
import io.pylon.worker.testing.LogCapture;
import io.pylon.worker.testing.ScriptedUpstream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An HTTP/2 request whose DATA is longer or shorter than its content-length is malformed (RFC 9113 section 8.1.1):
 * its stream is reset with PROTOCOL_ERROR at once, the upstream never gets it as a whole request, and the Worker logs
 * no warning for it (Helidon 4.5 would log one with a stack trace when the gateway then tried to answer).
 */
class Http2BodyLengthTest {
    static ScriptedUpstream upstream;
    static Gateway gateway;
    static int port;

    @BeforeAll
    static void start() throws Exception {
        upstream = ScriptedUpstream.start();
        gateway = Gateway.start("h2-body-length", """
                routes:
                  - {name: all, pathPrefix: /, upstreams: [%s]}
                """.formatted(upstream.url()), Map.of());
        port = URI.create(gateway.url("/")).getPort();
    }

    @AfterAll
    static void stop() throws Exception {
        gateway.close();
        upstream.close();
    }

    @ParameterizedTest(name = "content-length {0}, DATA {1} bytes")
    @CsvSource({"10, 5, RST_STREAM 1", "5, 10, RST_STREAM 1", "5, 5, HEADERS|DATA end"})
    void aBodyThatBreaksItsLengthResetsTheStream(int contentLength, int dataBytes, String expected) throws Exception {
        upstream.clearSeen();
        try (LogCapture warnings = LogCapture.open(Level.WARNING); RawHttp2 client = RawHttp2.connect(port)) {
            client.headers(1, "POST", "/echo", false, "content-length", Integer.toString(contentLength));
            client.data(1, "x".repeat(dataBytes).getBytes(StandardCharsets.US_ASCII), true);

            assertThat(client.framesOf(1, 10_000)).isEqualTo(List.of(expected.split("\\|")));
            Thread.sleep(300); // what the Worker might do after the reset
            assertThat(warnings.lines()).as("warnings logged").isEmpty();
        }
        if (contentLength == dataBytes) {
            assertThat(upstream.seen()).hasSize(1);
        } else {
            assertThat(upstream.seen()).as("requests the upstream read whole").isEmpty();
        }
    }
}
