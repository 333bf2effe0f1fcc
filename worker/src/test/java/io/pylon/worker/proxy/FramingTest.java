package io.pylon.worker.proxy;

import io.pylon.worker.testing.Gateway;
import io.pylon.worker.testing.LogCapture;
import io.pylon.worker.testing.ScriptedUpstream;
import io.pylon.worker.testing.WireConnection;
import io.pylon.worker.testing.WireConnection.Framing;
import io.pylon.worker.testing.WireConnection.Message;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Response framing on the wire, as a pooled client sees it: every body size around the streaming buffer and beyond,
 * sized and chunked, read to its end on a connection that then carries the next request; curl's verdict on the same
 * responses; and not one SEVERE log line for any of it.
 */
class FramingTest {
    static final long KIB = 1024;
    static final long MIB = 1024 * KIB;

    static ScriptedUpstream upstream;
    static Gateway gateway;
    static LogCapture severe;
    static String host;
    static int port;

    @BeforeAll
    static void start() throws Exception {
        severe = LogCapture.open(Level.SEVERE);
        upstream = ScriptedUpstream.start();
        gateway = Gateway.start("framing-test", """
                routes:
                  - {name: all, pathPrefix: /, upstreams: [%s]}
                """.formatted(upstream.url()), Map.of());
        URI uri = URI.create(gateway.url("/"));
        host = uri.getHost();
        port = uri.getPort();
    }

    @AfterEach
    void noSevereLines() {
        assertThat(severe.lines()).as("SEVERE log lines").isEmpty();
    }

    @AfterAll
    static void stop() throws Exception {
        gateway.close();
        upstream.close();
        severe.close();
    }

    @Test
    void connectionCarriesTheNextRequestAfterEverySizedBody() throws Exception {
        try (WireConnection connection = WireConnection.open(host, port)) {
            for (long size : List.of(0L, 16 * KIB - 1, 16 * KIB, 16 * KIB + 1, MIB, 100 * MIB, 0L, 16 * KIB + 1)) {
                Message response = connection.send(WireConnection.get("/bytes/" + size, host)).read();
                assertThat(response.status()).as("status for %d bytes", size).isEqualTo(200);
                assertThat(response.framing()).as("framing for %d bytes: %s", size, response).isEqualTo(Framing.LENGTH);
                assertThat(response.header("content-length")).isEqualTo(String.valueOf(size));
                assertThat(response.complete()).as("whole body of %d bytes", size).isTrue();
                assertThat(response.length()).isEqualTo(size);
                assertThat(response.crc()).as("content of %d bytes", size).isEqualTo(ScriptedUpstream.patternCrc(size));
                assertThat(response.header("connection")).as("%d bytes", size).isNotEqualToIgnoringCase("close");
            }
            Message last = connection.send(WireConnection.get("/last", host)).read();
            assertThat(last.status()).isEqualTo(200);
            assertThat(last.start()).isEqualTo("target /last");
        }
    }

    @Test
    void chunkedResponsesEndWithTheirLastChunkTwicePerConnection() throws Exception {
        for (long size : List.of(0L, 100L, 16 * KIB + 1, MIB)) {
            try (WireConnection connection = WireConnection.open(host, port)) {
                for (int round = 0; round < 2; round++) {
                    Message response = connection.send(WireConnection.get("/chunked/" + size, host)).read();
                    assertThat(response.status()).isEqualTo(200);
                    // an empty stream may go out as Content-Length: 0, which frames it as well
                    assertThat(response.framing()).as("%d bytes, round %d: %s", size, round, response)
                            .isIn(size == 0 ? List.of(Framing.CHUNKED, Framing.LENGTH) : List.of(Framing.CHUNKED));
                    assertThat(response.complete()).as("last chunk of %d bytes, round %d", size, round).isTrue();
                    assertThat(response.length()).isEqualTo(size);
                    assertThat(response.crc()).isEqualTo(ScriptedUpstream.patternCrc(size));
                }
            }
        }
    }

    @Test
    void streamedResponsesEndWithTheirLastChunkTwicePerConnection() throws Exception {
        try (WireConnection connection = WireConnection.open(host, port)) {
            for (String path : List.of("/trickle/3/20", "/sse/3/20", "/trickle/3/20")) {
                Message response = connection.send(WireConnection.get(path, host)).read();
                assertThat(response.framing()).as(path).isEqualTo(Framing.CHUNKED);
                assertThat(response.complete()).as(path).isTrue();
            }
        }
    }

    @Test
    void curlReadsSizedAndChunkedBodiesOnOneConnection() throws Exception {
        String base = "http://" + host + ":" + port;
        Process curl = new ProcessBuilder("curl", "-sS", "-o", "/dev/null", "-o", "/dev/null", "-o", "/dev/null",
                "-o", "/dev/null", "-w", "%{http_code} %{size_download} %{num_connects}\\n",
                base + "/bytes/16385", base + "/chunked/100000", base + "/bytes/" + MIB, base + "/sse/2/10")
                .redirectErrorStream(true).start();
        assertThat(curl.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String out = new String(curl.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(curl.exitValue()).as("curl exit code; said: %s", out).isZero();
        assertThat(out.lines().toList()).containsExactly("200 16385 1", "200 100000 0", "200 " + MIB + " 0",
                "200 30 0");
    }
}
