package io.pylon.worker.listener;

import io.pylon.core.testing.TestPods;
import io.pylon.worker.testing.Gateway;
import io.pylon.worker.testing.LogCapture;
import io.pylon.worker.testing.ScriptedUpstream;
import io.pylon.worker.testing.TestCertificates;
import io.pylon.worker.testing.WireConnection;
import io.pylon.worker.testing.WireConnection.Message;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.logging.Level;
import java.util.zip.CRC32;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An HTTP/1.1 client that closes or resets its connection while its request waits on the upstream, or while a slow
 * answer is relayed: the Worker closes the upstream connection within about half a second (a sweep of the listener's
 * guard starts a read ahead on the client's connection; nginx notices at once from its event loop), instead of holding
 * it until the upstream answers or the response timeout (30 s here) ends it. What the read ahead finds besides the
 * client's end reaches Helidon in order: a request pipelined behind a slow one, a request body sent slowly, the next
 * request on a kept-alive connection. The same over the TLS listener, where the read ahead and the answer's writes
 * share one TLS socket.
 */
class Http1ClientLeavesTest {
    private static ScriptedUpstream upstream;
    private static Gateway gateway;
    private static int port;
    private static TestCertificates.Issued ca;
    private static Path certificates;
    private static Gateway tlsGateway;

    @BeforeAll
    static void start() throws Exception {
        upstream = ScriptedUpstream.start();
        String routes = """
                routes:
                  - {name: api, pathPrefix: /api, stripPrefix: true, upstreams: [%s]}
                """.formatted(upstream.url());
        gateway = Gateway.start("worker-h1-leaves", routes, Map.of());
        port = URI.create(gateway.url("/")).getPort();
        ca = TestCertificates.authority("Test CA");
        TestCertificates.Issued leaf = TestCertificates.leaf("worker", ca);
        certificates = Files.createTempDirectory("pylon-leaves-tls");
        Files.writeString(certificates.resolve("tls.crt"), leaf.certificatePem());
        Files.writeString(certificates.resolve("tls.key"), leaf.keyPem());
        tlsGateway = Gateway.start("worker-h1-leaves-tls", routes, Map.of(
                "pylon.worker.tls.certificate-file", certificates.resolve("tls.crt").toString(),
                "pylon.worker.tls.key-file", certificates.resolve("tls.key").toString()));
    }

    @AfterAll
    static void stop() throws Exception {
        gateway.close();
        tlsGateway.close();
        upstream.close();
        TestPods.deleteTree(certificates);
    }

    private static WireConnection connectTls() throws Exception {
        SSLSocket socket = (SSLSocket) TestCertificates.trusting(ca).getSocketFactory()
                .createSocket("127.0.0.1", tlsGateway.pod.port());
        SSLParameters parameters = socket.getSSLParameters();
        parameters.setApplicationProtocols(new String[] {"http/1.1"});
        socket.setSSLParameters(parameters);
        socket.startHandshake();
        return WireConnection.over(socket);
    }

    @Test
    void aTlsClientClosingWhileTheUpstreamIsSilentReleasesTheUpstreamConnection() throws Exception {
        WireConnection client = connectTls().send(get("/api/hold/tls"));
        Gateway.await("the upstream got the request", 5_000, () -> upstream.holds("tls"));
        client.close();
        assertThat(upstream.awaitReleased("tls", 5_000)).as("ms until the upstream connection closed")
                .isNotNegative();
    }

    @Test
    void aRequestPipelinedOnAWatchedTlsConnectionIsAnsweredAfterTheSlowOne() throws Exception {
        try (WireConnection client = connectTls()) {
            assertPipelinedBehindASlowOneAnsweredInOrder(client);
        }
    }

    private static long clientAborted() {
        return ((Number) ((Map<?, ?>) gateway.connections().get("proxy")).get("clientAborted")).longValue();
    }

    private static WireConnection connect() throws Exception {
        return WireConnection.open("127.0.0.1", port);
    }

    private static String get(String path) {
        return WireConnection.get(path, "api.example.test");
    }

    @Test
    void aClientClosingWhileTheUpstreamIsSilentReleasesTheUpstreamConnection() throws Exception {
        assertLeavingReleasesTheUpstream("silent", "/api/hold/silent", false);
    }

    @Test
    void aClientResettingWhileTheUpstreamIsSilentReleasesTheUpstreamConnection() throws Exception {
        assertLeavingReleasesTheUpstream("reset", "/api/hold/reset", true);
    }

    @Test
    void aClientClosingWhileASlowAnswerIsRelayedReleasesTheUpstreamConnection() throws Exception {
        try (LogCapture warnings = LogCapture.open(Level.WARNING)) {
            long aborted = clientAborted();
            WireConnection client = connect().send(get("/api/hold/relayed/part"));
            assertThat(client.readStatusLine()).isEqualTo("HTTP/1.1 200 OK");
            Gateway.await("the upstream got the request", 5_000, () -> upstream.holds("relayed"));
            client.close();
            assertThat(upstream.awaitReleased("relayed", 5_000)).as("ms until the upstream connection closed")
                    .isNotNegative();
            Gateway.await("the abort counted", 5_000, () -> clientAborted() == aborted + 1);
            Gateway.await("the pool holds no leased connection", 5_000, () -> gateway.leased() == 0);
            assertThat(warnings.lines()).isEmpty();
        }
    }

    private static void assertLeavingReleasesTheUpstream(String key, String path, boolean reset) throws Exception {
        try (LogCapture warnings = LogCapture.open(Level.WARNING)) {
            long aborted = clientAborted();
            WireConnection client = connect().send(get(path));
            Gateway.await("the upstream got the request", 5_000, () -> upstream.holds(key));
            if (reset) {
                client.reset();
            } else {
                client.close();
            }
            // the response timeout is 30 s: only the client's leaving ends the exchange this soon
            assertThat(upstream.awaitReleased(key, 5_000)).as("ms until the upstream connection closed")
                    .isNotNegative();
            Gateway.await("the abort counted", 5_000, () -> clientAborted() == aborted + 1);
            Gateway.await("the pool holds no leased connection", 5_000, () -> gateway.leased() == 0);
            assertThat(warnings.lines()).isEmpty();
        }
    }

    @Test
    void aRequestPipelinedBehindASlowOneIsAnsweredAfterIt() throws Exception {
        try (WireConnection client = connect()) {
            assertPipelinedBehindASlowOneAnsweredInOrder(client);
        }
    }

    /** A request sent while the one before waits on the upstream (the read ahead takes it) is answered after it. */
    private static void assertPipelinedBehindASlowOneAnsweredInOrder(WireConnection client) throws Exception {
        client.send(get("/api/delay/1500"));
        Thread.sleep(800); // the client is watched by now: the read ahead gets the next request
        client.send(get("/api/after-the-slow-one"));
        Message slow = client.read();
        assertThat(slow.status()).isEqualTo(200);
        assertThat(slow.start()).isEqualTo("delayed 1500");
        assertThat(client.read().start()).isEqualTo("target /after-the-slow-one");
        assertThat(client.send(get("/api/after")).read().start()).isEqualTo("target /after");
    }

    @Test
    void theNextRequestOnAConnectionWhoseClientWasWatchedIsRead() throws Exception {
        try (WireConnection client = connect()) {
            assertThat(client.send(get("/api/delay/700")).read().start()).isEqualTo("delayed 700");
            Thread.sleep(600); // the read ahead that started during the wait is now the connection's next read
            assertThat(client.send(get("/api/next")).read().start()).isEqualTo("target /next");
            assertThat(client.send(get("/api/and-the-next")).read().start()).isEqualTo("target /and-the-next");
        }
    }

    @Test
    void aRequestBodySentSlowlyReachesTheUpstreamWhole() throws Exception {
        byte[] body = new byte[3 * 4096];
        Arrays.fill(body, (byte) 'x');
        for (int i = 0; i < body.length; i += 97) {
            body[i] = (byte) ('a' + i % 26);
        }
        CRC32 crc = new CRC32();
        crc.update(body);
        try (WireConnection client = connect()) {
            OutputStream out = client.output();
            out.write(("POST /api/echo HTTP/1.1\r\nHost: api.example.test\r\nContent-Length: " + body.length
                    + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            for (int i = 0; i < 3; i++) {
                // more than a sweep: the connection's thread is in a read of the body, so no read ahead may start
                Thread.sleep(600);
                out.write(body, i * 4096, 4096);
                out.flush();
            }
            assertThat(client.read().start()).isEqualTo(body.length + " " + crc.getValue() + " length");
            assertThat(client.send(get("/api/after-the-body")).read().start()).isEqualTo("target /after-the-body");
        }
    }
}
