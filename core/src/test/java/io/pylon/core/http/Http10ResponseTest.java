package io.pylon.core.http;

import io.helidon.common.buffers.BufferData;
import io.helidon.common.buffers.DataWriter;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

class Http10ResponseTest {
    /** Collects what reaches the socket. */
    private static final class Captured implements DataWriter {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

        @Override
        public void write(BufferData... buffers) {
            for (BufferData b : buffers) {
                write(b);
            }
        }

        @Override
        public void write(BufferData buffer) {
            byte[] out = new byte[buffer.available()];
            buffer.read(out);
            bytes.writeBytes(out);
        }

        @Override
        public void writeNow(BufferData... buffers) {
            write(buffers);
        }

        @Override
        public void writeNow(BufferData buffer) {
            write(buffer);
        }

        String text() {
            return bytes.toString(StandardCharsets.ISO_8859_1);
        }
    }

    private static String through(boolean http10, int pieceSize, String response) {
        Captured captured = new Captured();
        DataWriter writer = Http10Connections.writer(captured, () -> http10);
        byte[] bytes = response.getBytes(StandardCharsets.ISO_8859_1);
        for (int i = 0; i < bytes.length; i += pieceSize) {
            byte[] piece = java.util.Arrays.copyOfRange(bytes, i, Math.min(bytes.length, i + pieceSize));
            writer.write(BufferData.create(piece));
        }
        return captured.text();
    }

    private static final String CHUNKED = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n"
            + "Connection: close\r\n\r\n5\r\nhello\r\n7;ext=1\r\n, world\r\n0\r\n\r\n";

    @Test
    void chunkedBodyReachesAnHttp10ClientUnframedWhateverTheWrites() {
        String expected = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\nhello, world";
        for (int piece : new int[] {1, 2, 3, 7, 16, 1000}) {
            assertThat(through(true, piece, CHUNKED)).as("pieces of %d bytes", piece).isEqualTo(expected);
        }
    }

    @Test
    void interimHeadAndSizedBodyPassUnchanged() {
        String sized = "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello";
        assertThat(through(true, 3, sized)).isEqualTo(sized);
        String continued = "HTTP/1.1 100 Continue\r\n\r\n" + CHUNKED;
        assertThat(through(true, 5, continued)).endsWith("\r\n\r\nhello, world").doesNotContain("Transfer-Encoding");
    }

    @Test
    void aKeptAliveConnectionsAnswersAreEachReadFromTheirHead() {
        Captured captured = new Captured();
        Http10Exchanges exchanges = Http10Connections.exchanges();
        DataWriter writer = Http10Connections.writer(captured, () -> true, exchanges);
        exchanges.requested(false);
        exchanges.requested(true);
        exchanges.requested(false);
        exchanges.requested(false);
        String sized = "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nConnection: keep-alive\r\n\r\nhello";
        String head = "HTTP/1.1 200 OK\r\nContent-Length: 7\r\nConnection: keep-alive\r\n\r\n";
        String empty = "HTTP/1.1 204 No Content\r\nConnection: keep-alive\r\n\r\n";
        byte[] bytes = (sized + head + empty + CHUNKED).getBytes(StandardCharsets.ISO_8859_1);
        for (int i = 0; i < bytes.length; i += 3) {
            writer.write(BufferData.create(java.util.Arrays.copyOfRange(bytes, i, Math.min(bytes.length, i + 3))));
        }
        assertThat(captured.text()).isEqualTo(sized + head + empty
                + "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\nhello, world");
    }

    @Test
    void http11ConnectionsAreUntouched() {
        assertThat(through(false, 4, CHUNKED)).isEqualTo(CHUNKED);
    }
}
