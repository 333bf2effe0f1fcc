package io.pylon.core.broadcast;

import java.io.IOException;
import java.io.OutputStream;

/**
 * A buffer in front of the response stream that pushes data out only when told to ({@link #flush()}) or when full,
 * and closes without a flush of its own: an aggregate that is ready at once then leaves as one write (Helidon
 * can even give it a Content-Length), instead of a chunk plus a terminator that Nagle's algorithm would hold back
 * for the client's delayed ACK (40 ms on Linux).
 */
final class AggregateOutput extends OutputStream {
    private final OutputStream out;
    private final byte[] buffer;
    private int count;

    AggregateOutput(OutputStream out, int size) {
        this.out = out;
        this.buffer = new byte[size];
    }

    @Override
    public void write(int b) throws IOException {
        if (count == buffer.length) {
            drain();
        }
        buffer[count++] = (byte) b;
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
        if (length >= buffer.length) {
            drain();
            out.write(bytes, offset, length);
            return;
        }
        if (length > buffer.length - count) {
            drain();
        }
        System.arraycopy(bytes, offset, buffer, count, length);
        count += length;
    }

    @Override
    public void flush() throws IOException {
        drain();
        out.flush();
    }

    @Override
    public void close() throws IOException {
        try {
            drain();
        } finally {
            out.close();
        }
    }

    private void drain() throws IOException {
        if (count > 0) {
            out.write(buffer, 0, count);
            count = 0;
        }
    }
}
