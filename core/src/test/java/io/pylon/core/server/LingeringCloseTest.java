package io.pylon.core.server;

import io.helidon.http.HttpException;
import io.helidon.http.Status;
import io.pylon.core.http.BoundedBody;
import io.pylon.core.testing.FakeModule;
import io.pylon.core.testing.LingeringClients;
import io.pylon.core.testing.RawWire;
import io.pylon.core.testing.TestPods;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An answer given before the request body is read reaches the client, on a real pod and real sockets: the pod reads
 * and discards what the client still sends before closing (lingering close, as nginx), within its time and byte
 * bounds.
 */
class LingeringCloseTest {
    private static Pod pod;

    @BeforeAll
    static void start() {
        pod = TestPods.start(new FakeModule("linger").onStart(ctx -> ctx.routes()
                        .post("/bounded", (req, res) -> res.send(BoundedBody.read(req, 1024,
                                max -> new HttpException("The request body exceeds " + max + " bytes.",
                                        Status.REQUEST_ENTITY_TOO_LARGE_413, true))))
                        .post("/refuse", (req, res) -> res.status(401).send("{\"error\":\"unauthorized\"}"))),
                "linger-test", Map.of("pylon.server.lingering-time", "3s", "pylon.server.lingering-timeout", "1s",
                        "pylon.server.lingering-bytes", "16Mi"));
    }

    @AfterAll
    static void stop() {
        pod.close();
    }

    @ParameterizedTest
    @ValueSource(ints = {300_000, 5_000_000})
    void aClientThatWritesTheWholeBodyBeforeReadingGetsThe413(int size) throws Exception {
        byte[] request = LingeringClients.post("/bounded", size);
        for (int i = 0; i < 30; i++) {
            RawWire.Exchange exchange = RawWire.send("127.0.0.1", pod.port(), request, 10_000);

            assertThat(exchange.responses()).as("attempt %d", i).hasSize(1);
            assertThat(exchange.only().status()).isEqualTo(413);
            assertThat(exchange.only().header("connection")).isEqualTo("close");
            assertThat(exchange.only().body()).contains("payload_too_large");
            assertThat(exchange.closed()).as("the pod half-closes after the answer").isTrue();
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {300_000, 5_000_000})
    void javasHttpClientGetsThe413AndItsNextRequestSucceeds(int size) throws Exception {
        byte[] body = new byte[size];
        for (int i = 0; i < 30; i++) {
            HttpResponse<String> refused = TestPods.send(HttpRequest.newBuilder(
                            URI.create(TestPods.baseUrl(pod) + "/bounded")).timeout(Duration.ofSeconds(30))
                    .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build());
            assertThat(refused.statusCode()).as("attempt %d", i).isEqualTo(413);
            assertThat(refused.body()).contains("payload_too_large");
            assertThat(TestPods.get(pod, "/platform/management/health").statusCode()).isEqualTo(200);
        }
    }

    @Test
    void anAnswerBeforeALargeBodyIsReadReachesTheClient() throws Exception {
        byte[] request = LingeringClients.post("/refuse", 2_000_000);
        for (int i = 0; i < 10; i++) {
            RawWire.Exchange exchange = RawWire.send("127.0.0.1", pod.port(), request, 10_000);

            assertThat(exchange.only().status()).as("attempt %d", i).isEqualTo(401);
            assertThat(exchange.closed()).isTrue();
        }
    }

    @Test
    void helidonsOwnErrorAnswerToALongRequestLineReachesAClientStillSendingItsBody() throws Exception {
        // the request line is refused before the headers are read: the body cannot be drained, only lingered over
        byte[] request = LingeringClients.post("/bounded?q=" + "a".repeat(PodServer.MAX_REQUEST_LINE), 2_000_000);
        for (int i = 0; i < 10; i++) {
            RawWire.Exchange exchange = RawWire.send("127.0.0.1", pod.port(), request, 10_000);

            assertThat(exchange.only().status()).as("attempt %d", i).isEqualTo(414);
            assertThat(exchange.only().body()).startsWith("{");
            assertThat(exchange.closed()).isTrue();

            HttpResponse<String> refused = LingeringClients.javaPost(URI.create(TestPods.baseUrl(pod) + "/bounded?q="
                    + "a".repeat(PodServer.MAX_REQUEST_LINE)), 2_000_000);
            assertThat(refused.statusCode()).as("attempt %d", i).isEqualTo(414);
        }
    }

    @Test
    void aClientThatNeverStopsSendingIsCutWithinTheLingeringTime() throws Exception {
        // 8 KiB every 100 ms: never silent for the lingering timeout, far below the byte bound
        LingeringClients.Endless endless = LingeringClients.sendForever("127.0.0.1", pod.port(), "/bounded", 100,
                Duration.ofSeconds(60));

        assertThat(endless.response()).startsWith("HTTP/1.1 413");
        assertThat(endless.cut()).isTrue();
        // lingering time 3 s (the sweep adds up to 0.25 s); the rest is slack for a loaded machine
        assertThat(endless.cutAfter()).isGreaterThanOrEqualTo(Duration.ofSeconds(2)).isLessThan(Duration.ofSeconds(20));
    }

    @Test
    void aClientThatSendsMoreThanTheByteBoundIsCut() throws Exception {
        LingeringClients.Endless endless = LingeringClients.sendForever("127.0.0.1", pod.port(), "/bounded", 0,
                Duration.ofSeconds(60));

        assertThat(endless.response()).startsWith("HTTP/1.1 413");
        assertThat(endless.cut()).isTrue();
        // the 16 MiB bound, plus what the two sockets' buffers hold
        assertThat(endless.bytesSent()).isGreaterThan(16L << 20).isLessThan(64L << 20);
        assertThat(endless.cutAfter()).isLessThan(Duration.ofSeconds(20));
    }

    @Test
    void aClientThatStopsSendingButKeepsItsConnectionIsClosedAfterTheLingeringTimeout() throws Exception {
        try (LingeringClients.Silent silent = LingeringClients.sendThenWait("127.0.0.1", pod.port(), "/bounded",
                500_000)) {
            assertThat(silent.response()).startsWith("HTTP/1.1 413");
            assertThat(silent.halfClosed()).as("EOF after the answer").isTrue();

            long end = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (lingering() > 0 && System.nanoTime() < end) {
                Thread.sleep(50);
            }
            assertThat(lingering()).isZero();
            // the pod closed: the first write is answered with a reset, which fails a later one
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> {
                for (int i = 0; i < 50; i++) {
                    silent.socket().getOutputStream().write(new byte[1024]);
                    Thread.sleep(20);
                }
            }).isInstanceOf(java.io.IOException.class);
        }
    }

    @Test
    void theAnswerIsFollowedByAHalfCloseAndTheClientsCloseEndsTheLingeringClose() throws Exception {
        Pod patient = TestPods.start(new FakeModule("patient").onStart(ctx -> ctx.routes()
                        .post("/refuse", (req, res) -> res.status(401).send("{\"error\":\"unauthorized\"}"))),
                "patient-test", Map.of("pylon.server.lingering-time", "60s", "pylon.server.lingering-timeout", "60s"));
        try (LingeringClients.Silent silent = LingeringClients.sendThenWait("127.0.0.1", patient.port(), "/refuse",
                500_000)) {
            assertThat(silent.response()).startsWith("HTTP/1.1 401");
            // EOF long before a bound: the pod half-closed and still reads
            assertThat(silent.halfClosed()).as("EOF after the answer").isTrue();
            assertThat(lingering(patient)).isEqualTo(1);
            silent.socket().getOutputStream().write(new byte[100_000]); // still read and discarded, no reset
            silent.close();
            long end = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (lingering(patient) > 0 && System.nanoTime() < end) {
                Thread.sleep(50);
            }
            assertThat(lingering(patient)).as("the client's close ends it").isZero();
            assertThat(TestPods.get(patient, "/platform/management/health").body()).contains("\"lingeringCut\":0");
        } finally {
            patient.close();
        }
    }

    private static int lingering() {
        return lingering(pod);
    }

    private static int lingering(Pod pod) {
        return LingeringClients.lingering(TestPods.get(pod, "/platform/management/health").body());
    }
}
