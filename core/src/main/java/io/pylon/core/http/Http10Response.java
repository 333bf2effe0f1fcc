package io.pylon.core.http;

import org.jspecify.annotations.Nullable;

import io.helidon.common.buffers.BufferData;
import io.helidon.common.buffers.DataWriter;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.function.BooleanSupplier;

/**
 * The bytes of a response as an HTTP/1.0 client can read them. Helidon answers the HTTP/1.1 request the HTTP/1.0 one
 * was rewritten to, so a body of unknown length goes out chunked, which HTTP/1.0 does not have; on an HTTP/1.0
 * connection this writer takes {@code Transfer-Encoding: chunked} out of the response head and the chunk framing out
 * of the body. Such an answer always closes the connection (the server's HTTP/1.0 handling says {@code Connection:
 * close} on it), which ends its body as HTTP/1.0 expects. A sized answer passes as it is, counted, and the writer
 * reads the next answer's head after it (a kept-alive HTTP/1.0 connection); so does an answer without a body (to a
 * {@code HEAD}, as {@link Http10Exchanges} says, or a 204 or 304). Interim (1xx) heads pass as they are. On any other
 * connection everything passes unchanged.
 *
 * <p>Used by the one connection thread that writes the response; not thread-safe.
 */
final class Http10Response implements DataWriter {
    private enum State { HEAD, PASS, FIXED, SIZE, DATA, DATA_END, TRAILER }

    private final DataWriter delegate;
    private final BooleanSupplier http10;
    private final Http10Exchanges exchanges;
    private long fixedLeft;
    private final ByteArrayOutputStream head = new ByteArrayOutputStream();
    private final StringBuilder line = new StringBuilder();
    private State state = State.HEAD;
    private long chunkLeft;

    Http10Response(DataWriter delegate, BooleanSupplier http10, Http10Exchanges exchanges) {
        this.delegate = delegate;
        this.http10 = http10;
        this.exchanges = exchanges;
    }

    @Override
    public void write(BufferData... buffers) {
        for (BufferData buffer : buffers) {
            write(buffer);
        }
    }

    @Override
    public void write(BufferData buffer) {
        BufferData out = http10.getAsBoolean() ? translate(buffer) : buffer;
        if (out != null) {
            delegate.write(out);
        }
    }

    @Override
    public void writeNow(BufferData... buffers) {
        for (BufferData buffer : buffers) {
            writeNow(buffer);
        }
    }

    @Override
    public void writeNow(BufferData buffer) {
        BufferData out = http10.getAsBoolean() ? translate(buffer) : buffer;
        if (out != null) {
            delegate.writeNow(out);
        }
    }

    @Override
    public void flush() {
        delegate.flush();
    }

    @Override
    public void close() {
        delegate.close();
    }

    /** The bytes to send for {@code buffer}, null when none. */
    private @Nullable BufferData translate(BufferData buffer) {
        if (state == State.PASS) {
            return buffer;
        }
        byte[] bytes = new byte[buffer.available()];
        buffer.read(bytes);
        ByteArrayOutputStream out = new ByteArrayOutputStream(bytes.length);
        int i = 0;
        while (i < bytes.length) {
            switch (state) {
                case HEAD -> {
                    head.write(bytes[i++]);
                    if (endsWithBlankLine()) {
                        out.writeBytes(endOfHead());
                    }
                }
                case PASS -> {
                    out.write(bytes, i, bytes.length - i);
                    i = bytes.length;
                }
                case FIXED -> {
                    int n = (int) Math.min(fixedLeft, bytes.length - i);
                    out.write(bytes, i, n);
                    i += n;
                    fixedLeft -= n;
                    if (fixedLeft == 0) {
                        state = State.HEAD;
                    }
                }
                case SIZE, TRAILER -> {
                    char c = (char) (bytes[i++] & 0xff);
                    if (c != '\n') {
                        line.append(c);
                        continue;
                    }
                    String text = line.toString().strip();
                    line.setLength(0);
                    if (state == State.TRAILER) {
                        state = text.isEmpty() ? State.HEAD : State.TRAILER;
                        continue;
                    }
                    int semicolon = text.indexOf(';');
                    chunkLeft = Long.parseLong(semicolon < 0 ? text : text.substring(0, semicolon), 16);
                    state = chunkLeft == 0 ? State.TRAILER : State.DATA;
                }
                case DATA -> {
                    int n = (int) Math.min(chunkLeft, bytes.length - i);
                    out.write(bytes, i, n);
                    i += n;
                    chunkLeft -= n;
                    if (chunkLeft == 0) {
                        state = State.DATA_END;
                    }
                }
                case DATA_END -> {
                    if (bytes[i++] == '\n') {
                        state = State.SIZE;
                    }
                }
            }
        }
        return out.size() == 0 ? null : BufferData.create(out.toByteArray());
    }

    private boolean endsWithBlankLine() {
        int n = head.size();
        if (n < 4) {
            return false;
        }
        byte[] b = head.toByteArray();
        return b[n - 4] == '\r' && b[n - 3] == '\n' && b[n - 2] == '\r' && b[n - 1] == '\n';
    }

    /** The head as sent, without a chunked Transfer-Encoding; the next state from what it announced. */
    private byte[] endOfHead() {
        String text = head.toString(StandardCharsets.ISO_8859_1);
        head.reset();
        String[] lines = text.split("\r\n");
        String[] status = lines[0].split(" ");
        if (status.length > 1 && status[1].startsWith("1")) {
            return text.getBytes(StandardCharsets.ISO_8859_1); // interim: the final head follows
        }
        boolean noBody = exchanges.answering() || (status.length > 1 && (status[1].equals("204")
                || status[1].equals("304")));
        StringBuilder kept = new StringBuilder(text.length());
        boolean chunked = false;
        long length = -1;
        for (String l : lines) {
            String lower = l.toLowerCase(Locale.ROOT);
            if (lower.startsWith("transfer-encoding:") && lower.contains("chunked")) {
                chunked = true;
                continue;
            }
            if (lower.startsWith("content-length:")) {
                try {
                    length = Long.parseLong(lower.substring("content-length:".length()).strip());
                } catch (NumberFormatException e) {
                    length = -1;
                }
            }
            kept.append(l).append("\r\n");
        }
        kept.append("\r\n");
        if (noBody) {
            state = State.HEAD;
        } else if (chunked) {
            state = State.SIZE;
        } else if (length >= 0) {
            fixedLeft = length;
            state = length == 0 ? State.HEAD : State.FIXED;
        } else {
            state = State.PASS; // ended by the close
        }
        return kept.toString().getBytes(StandardCharsets.ISO_8859_1);
    }
}
