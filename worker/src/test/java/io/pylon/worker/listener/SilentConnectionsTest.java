package io.pylon.worker.listener;

import io.pylon.core.testing.RawWire;
import io.pylon.core.testing.TestPods;
import io.pylon.worker.testing.Gateway;
import io.pylon.worker.testing.TestCertificates;
import io.pylon.worker.testing.TestUpstream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import java.io.IOException;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Clients that connect and then hold the connection without starting a request: Helidon finishes a TLS handshake, and
 * with HTTP/2 beside HTTP/1 reads the first bytes, before any protocol (and so the pod's connection guard) takes the
 * connection. Each is closed after the idle timeout, as nginx's client_header_timeout does, instead of holding a
 * connection slot, a thread and a descriptor for good; a connection in use is not.
 */
class SilentConnectionsTest {
    static TestCertificates.Issued ca;
    static Path secret;
    static TestUpstream echo;
    static Gateway plain;
    static Gateway tls;

    @BeforeAll
    static void start() throws IOException {
        ca = TestCertificates.authority("Test CA");
        TestCertificates.Issued leaf = TestCertificates.leaf("silent", ca);
        secret = Files.createTempDirectory("pylon-tls");
        Files.writeString(secret.resolve("tls.crt"), leaf.certificatePem());
        Files.writeString(secret.resolve("tls.key"), leaf.keyPem());
        echo = TestUpstream.echo("e");
        String routes = """
                routes:
                  - {name: echo, pathPrefix: /echo, upstreams: [%s]}
                """.formatted(echo.url());
        plain = Gateway.start("worker-silent", routes, Map.of("pylon.server.idle-timeout", "1s"));
        tls = Gateway.start("worker-silent-tls", routes, Map.of(
                "pylon.server.idle-timeout", "1s",
                "pylon.worker.tls.certificate-file", secret.resolve("tls.crt").toString(),
                "pylon.worker.tls.key-file", secret.resolve("tls.key").toString()));
    }

    @AfterAll
    static void stop() {
        plain.close();
        tls.close();
        echo.close();
        TestPods.deleteTree(secret);
    }

    @Test
    void aPlainConnectionThatSendsNothingIsClosed() throws Exception {
        try (Socket socket = connect(plain)) {
            assertThat(RawWire.msUntilClosed(socket, System.nanoTime())).isBetween(900L, 3_000L);
        }
    }

    @Test
    void aTlsConnectionThatSendsNothingIsClosed() throws Exception {
        try (Socket socket = connect(tls)) {
            assertThat(RawWire.msUntilClosed(socket, System.nanoTime())).isBetween(900L, 3_000L);
        }
    }

    @Test
    void aTlsHandshakeLeftHalfwayIsClosed() throws Exception {
        try (Socket socket = connect(tls)) {
            socket.getOutputStream().write(new byte[]{0x16, 0x03, 0x01, 0x02}); // a handshake record's start
            assertThat(RawWire.msUntilClosed(socket, System.nanoTime())).isBetween(900L, 3_000L);
        }
    }

    @Test
    void aTlsConnectionSilentAfterItsHandshakeIsClosed() throws Exception {
        try (SSLSocket socket = connectTls()) {
            socket.startHandshake();
            assertThat(RawWire.msUntilClosed(socket, System.nanoTime())).isBetween(900L, 3_000L);
        }
    }

    @Test
    void anHttp2ConnectionChosenByAlpnAndSilentIsClosed() throws Exception {
        try (SSLSocket socket = connectTls()) {
            SSLParameters parameters = socket.getSSLParameters();
            parameters.setApplicationProtocols(new String[]{"h2"});
            socket.setSSLParameters(parameters);
            socket.startHandshake();
            assertThat(socket.getApplicationProtocol()).isEqualTo("h2");
            assertThat(RawWire.msUntilClosed(socket, System.nanoTime())).isBetween(900L, 3_000L);
        }
    }

    /**
     * Helidon's stop waits up to the shutdown grace for every connection's handler and cannot ask these to close: one
     * silent client held the stop for the whole grace. They get what a keep-alive connection gets while the pod drains.
     */
    @Test
    void aSilentConnectionDoesNotHoldThePodsStop() throws Exception {
        for (boolean secure : new boolean[]{false, true}) {
            Map<String, String> settings = new java.util.HashMap<>(Map.of("pylon.shutdown.grace", "15s"));
            if (secure) {
                settings.put("pylon.worker.tls.certificate-file", secret.resolve("tls.crt").toString());
                settings.put("pylon.worker.tls.key-file", secret.resolve("tls.key").toString());
            }
            Gateway stopping = Gateway.start("worker-silent-stop", "routes: []", settings);
            try (Socket silent = connect(stopping)) {
                Thread.sleep(300);
                long t0 = System.nanoTime();
                stopping.close();
                assertThat((System.nanoTime() - t0) / 1_000_000).as("ms to stop, TLS " + secure).isLessThan(6_000L);
            }
        }
    }

    /** While they are held, the listener check counts them: they hold connection slots like any other. */
    @Test
    void silentConnectionsAreCountedInTheHealthCheck() throws Exception {
        try (Gateway patient = Gateway.start("worker-silent-counted", "routes: []",
                Map.of("pylon.server.idle-timeout", "60s"));
             Socket one = connect(patient); Socket two = connect(patient); Socket three = connect(patient)) {
            Gateway.await("three silent connections counted", 10_000, () -> {
                String health = TestPods.get(patient.pod, "/platform/management/health").body();
                Matcher m = Pattern.compile("\"clientConnections\":(\\d+)").matcher(health);
                return m.find() && Integer.parseInt(m.group(1)) >= 3;
            });
        }
    }

    @Test
    void aConnectionInUseOutlivesTheBound() throws Exception {
        try (Socket socket = connect(plain)) {
            useFor2400ms(socket);
        }
    }

    @Test
    void aTlsConnectionInUseOutlivesTheBound() throws Exception {
        try (SSLSocket socket = connectTls()) {
            useFor2400ms(socket);
        }
    }

    /** Requests 400 ms apart: well past the bound counted from the connect, never idle as long as the idle timeout. */
    private static void useFor2400ms(Socket socket) throws Exception {
        for (int i = 0; i < 6; i++) {
            socket.getOutputStream().write("GET /echo/x HTTP/1.1\r\nHost: api.test\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            assertThat(RawWire.firstRead(socket)).startsWith("HTTP/1.1 200");
            Thread.sleep(400);
        }
    }

    /** A TLS connection to the TLS Worker, its handshake not started yet. */
    private static SSLSocket connectTls() throws IOException {
        URI uri = URI.create(tls.url("/"));
        SSLSocket socket = (SSLSocket) TestCertificates.trusting(ca).getSocketFactory()
                .createSocket(uri.getHost(), uri.getPort());
        socket.setSoTimeout(10_000);
        return socket;
    }

    private static Socket connect(Gateway gateway) throws IOException {
        URI uri = URI.create(gateway.url("/"));
        Socket socket = new Socket(uri.getHost(), uri.getPort());
        socket.setSoTimeout(10_000);
        return socket;
    }

}
