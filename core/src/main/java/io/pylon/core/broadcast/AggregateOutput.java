package io.pylon.core.broadcast;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;

/**
 * A bounded buffer in front of the response stream. Answers collect in it until it would pass its limit, then go
 * out; an answer as large as the limit goes out directly. So the aggregate is never held whole (a thread dump
 * broadcast streams pod by pod), while an aggregate of small answers (jvm, health...) leaves in one write with a
 * Content-Length. Chunks followed by a small final write would each wait for the client's delayed ACK (Nagle's
 * algorithm: 40 ms on Linux), which is why this buffers by size and never flushes on its own before the end.
 */
final class AggregateOutput extends OutputStream {
    private static final int INITIAL = 16 * 1024;

    private final OutputStream out;
    private final int limit;
    private byte[] buffer;
    private int count;

    AggregateOutput(OutputStream out, int limit) {
        this.out = out;
        this.limit = limit;
        this.buffer = new byte[Math.min(INITIAL, limit)];
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
        if (length >= limit) {
            drain();
            out.write(bytes, offset, length);
            return;
        }
        if (count + length > limit) {
            drain();
        }
        if (count + length > buffer.length) {
            buffer = Arrays.copyOf(buffer, Math.min(limit, Math.max(buffer.length * 2, count + length)));
        }
        System.arraycopy(bytes, offset, buffer, count, length);
        count += length;
    }

    @Override
    public void flush() throws IOException {
        drain();
        out.flush();
    }

    /** Sends what is left and ends the response, with no flush before: a small aggregate is then one write. */
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
