package io.pylon.worker.proxy;

import io.pylon.worker.testing.Gateway;
import io.pylon.worker.testing.ScriptedUpstream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Helidon 4.5 holds each chunk of a chunked request body whole, and reads a chunk's size line and a trailer line to
 * their ends however long: the gateway bounds what one read of the body may pull (8 MiB and its lines), so a client
 * that sends an endless size line, an endless trailer line or a 64 MiB chunk is answered 413 once about 8 MiB of it
 * came, instead of the pod holding it all (and waiting for the rest). A chunk within the bound passes whole.
 */
class ChunkBoundsTest {
    static final int MIB = 1 << 20;
    static ScriptedUpstream upstream;
    static Gateway gateway;
    static int port;

    @BeforeAll
    static void start() throws Exception {
        upstream = ScriptedUpstream.start();
        gateway = Gateway.start("chunk-bounds", """
                routes:
                  - {name: readonly, pathPrefix: /ro, methods: [GET], upstreams: [%1$s]}
                  - {name: echo, pathPrefix: /echo, upstreams: [%1$s]}
                """.formatted(upstream.url()), Map.of());
        port = URI.create(gateway.url("/")).getPort();
    }

    @AfterAll
    static void stop() throws Exception {
        gateway.close();
        upstream.close();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"an endless size line", "an endless trailer line", "a 64 MiB chunk"})
    void anOversizedChunkOrLineIsCutAfterTheBound(String attack) throws Exception {
        String start = switch (attack) {
            case "an endless size line" -> "";
            case "an endless trailer line" -> "3\r\nabc\r\n0\r\nX-Trailer: ";
            default -> Integer.toHexString(64 * MIB) + "\r\n";
        };
        upstream.clearSeen();
        try (Socket client = new Socket("127.0.0.1", port)) {
            client.setSoTimeout(10_000);
            OutputStream out = client.getOutputStream();
            out.write(("POST /echo HTTP/1.1\r\nHost: api.test\r\nTransfer-Encoding: chunked\r\n\r\n" + start)
                    .getBytes(StandardCharsets.ISO_8859_1));
            byte[] filler = "0".repeat(64 * 1024).getBytes(StandardCharsets.ISO_8859_1);
            long sent = 0;
            try {
                while (sent < 64L * MIB) {
                    out.write(filler);
                    sent += filler.length;
                }
            } catch (IOException e) {
                // cut: what the test wants
            }
            // what follows the 413 is read and thrown away for the lingering time (the client sees the answer, not a
            // reset), not held; before, the Worker held it all and then waited for the rest of the line or chunk
            assertThat(readAll(client.getInputStream())).startsWith("HTTP/1.1 413")
                    .contains("send the body in smaller chunks");
        }
        assertThat(upstream.seen()).as("requests the upstream read whole").isEmpty();
    }

    /**
     * A request the gateway refuses before it reads the body (a method its route does not take: 405) has its body
     * drained for the next request on the connection, up to 64 KiB: a client that announced a 64 MiB chunk, sent
     * 16 MiB of it and waits sees its connection end after the answer; before, the drain held those 16 MiB and waited
     * for the rest of the chunk until the body timeout.
     */
    @Test
    void anUnreadBodyWithAHugeChunkEndsTheConnectionAfterTheAnswer() throws Exception {
        try (Socket client = new Socket("127.0.0.1", port)) {
            client.setSoTimeout(5_000);
            OutputStream out = client.getOutputStream();
            out.write(("POST /ro/x HTTP/1.1\r\nHost: api.test\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + Integer.toHexString(64 * MIB) + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
            byte[] filler = new byte[64 * 1024];
            try {
                for (long sent = 0; sent < 16L * MIB; sent += filler.length) {
                    out.write(filler);
                }
            } catch (IOException e) {
                // cut: what the test wants
            }
            ByteArrayOutputStream got = new ByteArrayOutputStream();
            boolean ended;
            try {
                client.getInputStream().transferTo(got);
                ended = true;
            } catch (java.net.SocketTimeoutException e) {
                ended = false;
            } catch (IOException e) {
                ended = true; // a reset
            }
            assertThat(got.toString(StandardCharsets.ISO_8859_1)).startsWith("HTTP/1.1 405");
            assertThat(ended).as("the connection ended within 5 s of the answer").isTrue();
        }
    }

    @Test
    void aChunkWithinTheBoundPassesWhole() throws Exception {
        upstream.clearSeen();
        int size = 4 * MIB;
        try (Socket client = new Socket("127.0.0.1", port)) {
            client.setSoTimeout(10_000);
            OutputStream out = client.getOutputStream();
            out.write(("POST /echo HTTP/1.1\r\nHost: api.test\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
                    + Integer.toHexString(size) + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
            out.write(new byte[size]);
            out.write("\r\n0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
            out.flush();

            assertThat(readAll(client.getInputStream())).startsWith("HTTP/1.1 200").contains(size + " ");
        }
    }

    private static String readAll(InputStream in) {
        ByteArrayOutputStream got = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        try {
            int n;
            while ((n = in.read(buffer)) >= 0) {
                got.write(buffer, 0, n);
            }
        } catch (IOException e) {
            // a reset ends it too
        }
        return got.toString(StandardCharsets.ISO_8859_1);
    }
}
