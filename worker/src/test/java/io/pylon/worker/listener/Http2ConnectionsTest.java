package io.pylon.worker.listener;

import io.pylon.core.testing.TestPods;
import io.pylon.worker.testing.Gateway;
import io.pylon.worker.testing.TestUpstream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * HTTP/2 client connections count under the pod's connection guard as HTTP/1 ones do: in the listener's
 * {@code clientConnections} and against {@code pylon.server.max-connections}.
 */
class Http2ConnectionsTest {
    static final byte[] PREFACE_AND_SETTINGS = concat("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII),
            new byte[]{0, 0, 0, 4, 0, 0, 0, 0, 0}); // an empty SETTINGS frame
    static TestUpstream echo;
    static Gateway gateway;
    static int port;

    @BeforeAll
    static void start() {
        echo = TestUpstream.echo("e");
        gateway = Gateway.start("worker-h2-guard", """
                routes:
                  - {name: echo, pathPrefix: /echo, upstreams: [%s]}
                """.formatted(echo.url()), Map.of("pylon.server.max-connections", "2"));
        port = gateway.pod.port();
    }

    @AfterAll
    static void stop() {
        gateway.close();
        echo.close();
    }

    /** An HTTP/2 connection by prior knowledge, established (the server's SETTINGS read). */
    static Socket http2() throws IOException {
        Socket socket = new Socket();
        socket.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
        socket.getOutputStream().write(PREFACE_AND_SETTINGS);
        socket.getOutputStream().flush();
        socket.setSoTimeout(10_000);
        byte[] header = socket.getInputStream().readNBytes(9);
        assertThat(header).hasSize(9);
        assertThat(header[3]).as("the server's first frame is SETTINGS").isEqualTo((byte) 4);
        return socket;
    }

    /** The health answer over a fresh HTTP/1.1 connection that closes after it, or null when none came in time. */
    static String health(int waitMillis) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
            socket.getOutputStream().write(("GET /platform/management/health HTTP/1.1\r\nHost: x\r\n"
                    + "Connection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            socket.setSoTimeout(waitMillis);
            InputStream in = socket.getInputStream();
            try {
                return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
            } catch (SocketTimeoutException e) {
                return null;
            }
        }
    }

    static int clientConnections(String health) {
        Matcher m = Pattern.compile("\"clientConnections\":(\\d+)").matcher(health);
        assertThat(m.find()).as(health).isTrue();
        return Integer.parseInt(m.group(1));
    }

    @Test
    void http2ConnectionsAreCountedAndBoundLikeHttp1Ones() throws Exception {
        try (Socket first = http2()) {
            // this HTTP/1.1 connection and the HTTP/2 one
            Gateway.await("the HTTP/2 connection to be counted", 10_000, () -> {
                try {
                    String answer = health(10_000);
                    return answer != null && clientConnections(answer) == 2;
                } catch (IOException e) {
                    return false;
                }
            });
            try (Socket second = http2()) {
                // two HTTP/2 connections hold the pod's two: a third connection waits in the backlog
                assertThat(health(1500)).as("an answer while two HTTP/2 connections hold the cap").isNull();
            }
            String answer = health(20_000);
            assertThat(answer).as("an answer once one of them closed").isNotNull().startsWith("HTTP/1.1 200");
        }
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] all = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }
}
