package io.pylon.manager.api;

import io.pylon.core.server.Pod;
import io.pylon.core.testing.LingeringClients;
import io.pylon.core.testing.RawWire;
import io.pylon.core.testing.TestPods;
import io.pylon.manager.ManagerClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.net.URI;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Answers the Manager gives before it reads a request body (413 by the declared length, 401 before the body) reach
 * the client whatever it does with the body it is still sending, on a real pod and real sockets: the pod's lingering
 * close reads and discards the rest, within its bounds.
 */
class EarlyAnswerTest {
    private static Pod pod;
    private static String token;

    @BeforeAll
    static void start() {
        pod = ManagerClient.start("manager-early", Map.of("pylon.server.lingering-bytes", "16Mi"));
        token = new ManagerClient(pod).adminToken();
    }

    @AfterAll
    static void stop() {
        pod.stop();
    }

    @ParameterizedTest
    @ValueSource(ints = {300_000, 5_000_000})
    void aClientThatWritesTheWholeOversizedBodyBeforeReadingGetsThe413(int size) throws Exception {
        byte[] request = LingeringClients.post("/apiops/users", size, "Authorization: Bearer " + token);
        for (int i = 0; i < 30; i++) {
            RawWire.Exchange exchange = RawWire.send("127.0.0.1", pod.port(), request, 10_000);

            assertThat(exchange.only().status()).as("attempt %d", i).isEqualTo(413);
            assertThat(exchange.only().header("content-type")).startsWith("application/json");
            assertThat(exchange.only().body()).contains("\"error\":\"invalid_request\"")
                    .contains("exceeds " + RequestBodies.MAX_BODY + " bytes");
            assertThat(exchange.only().header("connection")).isEqualTo("close");
            assertThat(exchange.closed()).isTrue();
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {300_000, 5_000_000})
    void javasHttpClientGetsThe413OfTheTokenEndpointAndItsNextRequestSucceeds(int size) {
        URI uri = URI.create(TestPods.baseUrl(pod) + "/apiops/auth/token");
        for (int i = 0; i < 30; i++) {
            HttpResponse<String> refused = LingeringClients.javaPost(uri, size,
                    "Content-Type", RequestBodies.FORM);

            assertThat(refused.statusCode()).as("attempt %d", i).isEqualTo(413);
            assertThat(refused.body()).contains("\"error\":\"invalid_request\"");
            assertThat(TestPods.get(pod, "/platform/management/health").statusCode()).isEqualTo(200);
        }
    }

    @Test
    void aRefusalBeforeTheBodyIsReadReachesTheClient() throws Exception {
        byte[] request = LingeringClients.post("/apiops/users", 2_000_000);
        for (int i = 0; i < 10; i++) {
            RawWire.Exchange exchange = RawWire.send("127.0.0.1", pod.port(), request, 10_000);

            assertThat(exchange.only().status()).as("attempt %d", i).isEqualTo(401);
            assertThat(exchange.only().body()).startsWith("{");
        }
    }

    @Test
    void aClientThatNeverStopsSendingIsCutByTheLingeringBound() throws Exception {
        LingeringClients.Endless endless = LingeringClients.sendForever("127.0.0.1", pod.port(), "/apiops/users", 0,
                Duration.ofSeconds(120), "Authorization: Bearer " + token);

        assertThat(endless.response()).startsWith("HTTP/1.1 413");
        assertThat(endless.cut()).as("cut after %s, %d bytes", endless.cutAfter(), endless.bytesSent()).isTrue();
        // the pod's 16 MiB bound, plus what the two sockets' buffers hold
        assertThat(endless.bytesSent()).isGreaterThan(16L << 20).isLessThan(96L << 20);
    }
}
