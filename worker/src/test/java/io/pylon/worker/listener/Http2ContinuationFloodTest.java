package io.pylon.worker.listener;

import io.pylon.worker.testing.Gateway;
import io.pylon.worker.testing.TestUpstream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A header block continued without end (the HTTP/2 CONTINUATION flood): Helidon 4.5.0 keeps every CONTINUATION frame
 * of a block until it ends and bounds only their bytes, so empty frames grew a pod's heap by about 60 bytes per 9 bytes
 * sent (1.2 GB for 180 MB). The listener ends such a connection with GOAWAY (ENHANCE_YOUR_CALM) after the ninth
 * CONTINUATION of a block, on connections opened with the preface and on upgraded ones; a block split over a few
 * frames is served.
 */
class Http2ContinuationFloodTest {
    private static final int ENHANCE_YOUR_CALM = 0xb;
    static TestUpstream upstream;
    static Gateway gateway;

    @BeforeAll
    static void start() {
        upstream = TestUpstream.start(exchange -> {
            String big = exchange.getRequestHeaders().getFirst("x-big");
            TestUpstream.send(exchange, 200, ("hello " + (big == null ? 0 : big.length())).getBytes(StandardCharsets.UTF_8));
        });
        gateway = Gateway.start("worker-h2-continuation", """
                routes:
                  - {name: api, pathPrefix: /api, upstreams: [%s]}
                """.formatted(upstream.url()), Map.of());
    }

    @AfterAll
    static void stop() {
        gateway.close();
        upstream.close();
    }

    @Test
    void aHeaderBlockSplitOverEightContinuationsIsServed() throws Exception {
        try (RawHttp2 client = RawHttp2.connect(gateway.pod.port())) {
            client.headersContinued(1, "GET", "/api/split", 8, "x-big", "b".repeat(120));
            assertThat(client.answer(1)).isEqualTo("hello 120");
            client.headers(3, "GET", "/api/next", true, "x-big", "c");
            assertThat(client.answer(3)).isEqualTo("hello 1");
        }
    }

    @Test
    void aNinthContinuationEndsTheConnectionWithGoAway() throws Exception {
        try (RawHttp2 client = RawHttp2.connect(gateway.pod.port())) {
            client.endlessHeaders(1, 9);
            assertThat(client.goAwayCodeWithin(10_000)).isEqualTo(ENHANCE_YOUR_CALM);
            assertThat(client.closedWithin(10_000)).isTrue();
        }
        assertServesANewConnection();
    }

    @Test
    void anUpgradedConnectionIsBoundTheSameWay() throws Exception {
        try (RawHttp2 client = RawHttp2.upgrade(gateway.pod.port(), "/api/upgraded")) {
            assertThat(client.answer(1)).isEqualTo("hello 0");
            client.endlessHeaders(3, 20);
            assertThat(client.goAwayCodeWithin(10_000)).isEqualTo(ENHANCE_YOUR_CALM);
            assertThat(client.closedWithin(10_000)).isTrue();
        }
        assertServesANewConnection();
    }

    @Test
    void aFloodOfEmptyContinuationsIsCutLongBeforeItEnds() throws Exception {
        long frames = 20_000_000; // 180 MB on the wire; the pod's heap grew by 1.2 GB taking them before the bound
        try (RawHttp2 client = RawHttp2.connect(gateway.pod.port())) {
            IOException cut = null;
            try {
                client.endlessHeaders(1, frames);
            } catch (IOException e) {
                cut = e; // the pod closed the connection while the client was still sending
            }
            assertThat(cut).as("the pod cut the flood").isNotNull();
        }
        assertServesANewConnection();
    }

    private static void assertServesANewConnection() throws IOException {
        try (RawHttp2 client = RawHttp2.connect(gateway.pod.port())) {
            client.headers(1, "GET", "/api/after", true, "x-big", "ok");
            assertThat(client.answer(1)).isEqualTo("hello 2");
        }
    }
}
