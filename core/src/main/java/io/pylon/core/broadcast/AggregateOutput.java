package io.pylon.core.broadcast;

import org.jspecify.annotations.Nullable;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A bounded buffer in front of the response. Answers collect in it until it would pass its limit; only then is the
 * response opened as a stream and the buffer sent (an answer as large as the limit goes out directly), so the
 * aggregate is never held whole and a thread dump broadcast streams pod by pod. An aggregate that never passes the
 * limit (jvm, health... of dozens of pods) is sent whole, with a Content-Length, in one write of headers and body:
 * a streamed response costs a chunked encoding and separate writes for the headers, each chunk and the last chunk.
 * (Pods set TCP_NODELAY, so the separate writes cost system calls and packets, not a delayed-ACK stall.)
 *
 * <p>Not thread-safe: one broadcast writes to it from one thread.
 */
public final class AggregateOutput extends OutputStream {
    private static final int INITIAL = 16 * 1024;

    private final Supplier<OutputStream> stream;
    private final Consumer<byte[]> whole;
    private final int limit;
    private @Nullable OutputStream out;
    private byte[] buffer;
    private int count;
    private boolean closed;

    /**
     * @param stream opens the response as a stream, at most once
     * @param whole  sends the whole response at once, when the stream was never opened
     */
    public AggregateOutput(Supplier<OutputStream> stream, Consumer<byte[]> whole, int limit) {
        this.stream = stream;
        this.whole = whole;
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
            drain().write(bytes, offset, length);
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

    /** Sends what is left: the whole response when it stayed under the limit, else the stream's last piece. */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        OutputStream opened = out;
        if (opened == null) {
            whole.accept(Arrays.copyOf(buffer, count));
            return;
        }
        try {
            drain();
        } finally {
            opened.close();
        }
    }

    /**
     * Gives up after a failure: nothing is sent when nothing went out yet (the server can still answer an error),
     * otherwise the stream is ended where it is, and the client sees a truncated response rather than a valid one.
     */
    public void abort() {
        if (closed) {
            return;
        }
        closed = true;
        if (out != null) {
            try {
                out.close();
            } catch (IOException | RuntimeException e) {
                // the response is broken either way
            }
        }
    }

    /** Opens the stream if not yet open, writes the buffer to it, and returns it. */
    private OutputStream drain() throws IOException {
        OutputStream opened = out;
        if (opened == null) {
            try {
                opened = stream.get();
            } catch (UncheckedIOException e) {
                throw e.getCause();
            }
            out = opened;
        }
        if (count > 0) {
            opened.write(buffer, 0, count);
            count = 0;
        }
        return opened;
    }
}
