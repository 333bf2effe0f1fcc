package io.pylon.worker.listener;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * An HTTP/2 client by prior knowledge written frame by frame, for what real clients will not do: send part of a body
 * and then nothing while the stream stays open (curl 7.88 and the JDK client also show no answer before their upload
 * ends), or continue a header block without end. Header blocks use HPACK literals without Huffman coding; answers are read as their DATA bytes.
 */
final class RawHttp2 implements AutoCloseable {
    static final int DATA = 0;
    static final int HEADERS = 1;
    private static final int SETTINGS = 4;
    private static final int RST_STREAM = 3;
    static final int PING = 6;
    private static final int GOAWAY = 7;
    private static final int WINDOW_UPDATE = 8;
    static final int CONTINUATION = 9;
    static final int END_STREAM = 1;
    static final int END_HEADERS = 4;
    private final Socket socket;
    private final OutputStream out;
    private final DataInputStream in;

    private RawHttp2(Socket socket) throws IOException {
        this.socket = socket;
        this.out = socket.getOutputStream();
        this.in = new DataInputStream(socket.getInputStream());
    }

    static RawHttp2 connect(int port) throws IOException {
        Socket socket = new Socket();
        socket.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
        socket.setSoTimeout(30_000);
        socket.setTcpNoDelay(true);
        RawHttp2 client = new RawHttp2(socket);
        client.out.write("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        client.frame(SETTINGS, 0, 0, new byte[0]);
        return client;
    }

    /**
     * An HTTP/1.1 connection upgraded to HTTP/2 by {@code Upgrade: h2c} on a GET of {@code path}, whose answer then
     * comes on stream 1.
     */
    static RawHttp2 upgrade(int port, String path) throws IOException {
        Socket socket = new Socket();
        socket.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
        socket.setSoTimeout(30_000);
        RawHttp2 client = new RawHttp2(socket);
        client.out.write(("GET " + path + " HTTP/1.1\r\nHost: pod\r\nConnection: Upgrade, HTTP2-Settings\r\n"
                + "Upgrade: h2c\r\nHTTP2-Settings: AAMAAABkAAQAAP__\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        client.out.flush();
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int b = client.in.read();
            if (b < 0) {
                throw new IOException("no answer to the upgrade: " + head);
            }
            head.append((char) b);
        }
        if (!head.toString().startsWith("HTTP/1.1 101")) {
            throw new IOException("not upgraded: " + head);
        }
        client.out.write("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        client.frame(SETTINGS, 0, 0, new byte[0]);
        return client;
    }

    /** A request's header block; {@code end} when it has no body. */
    void headers(int stream, String method, String path, boolean end, String... nameValues) throws IOException {
        frame(HEADERS, END_HEADERS | (end ? END_STREAM : 0), stream, headerBlock(method, path, "pod", nameValues));
    }

    /** A request without body whose :authority is {@code authority}. */
    void headersWithAuthority(int stream, String method, String path, String authority) throws IOException {
        frame(HEADERS, END_HEADERS | END_STREAM, stream, headerBlock(method, path, authority, new String[0]));
    }

    /**
     * A request without body whose header block is split into a HEADERS frame and {@code continuations}
     * CONTINUATION frames (the last of them possibly empty).
     */
    void headersContinued(int stream, String method, String path, int continuations, String... nameValues)
            throws IOException {
        byte[] block = headerBlock(method, path, "pod", nameValues);
        int piece = Math.max(1, block.length / (continuations + 1));
        int at = Math.min(piece, block.length);
        frame(HEADERS, END_STREAM, stream, java.util.Arrays.copyOfRange(block, 0, at));
        for (int i = 1; i <= continuations; i++) {
            int next = i == continuations ? block.length : Math.min(at + piece, block.length);
            frame(CONTINUATION, i == continuations ? END_HEADERS : 0, stream,
                    java.util.Arrays.copyOfRange(block, at, next));
            at = next;
        }
    }

    /** A request's HEADERS frame whose block goes on in CONTINUATION frames (none sent here). */
    void headersOpen(int stream, String method, String path) throws IOException {
        frame(HEADERS, END_STREAM, stream, headerBlock(method, path, "pod", new String[0]));
    }

    /**
     * Sends a frame one byte at a time, {@code gapMillis} apart: whether the server closed the connection before the
     * frame's last byte (a write failed).
     */
    boolean trickleCut(int type, int flags, int stream, byte[] payload, long gapMillis) throws InterruptedException {
        byte[] frame = frameBytes(type, flags, stream, payload);
        try {
            for (byte b : frame) {
                synchronized (this) {
                    out.write(b);
                    out.flush();
                }
                Thread.sleep(gapMillis);
            }
            return false;
        } catch (IOException e) {
            return true;
        }
    }

    /** A request's HEADERS frame whose block never ends: then {@code count} empty CONTINUATION frames. */
    void endlessHeaders(int stream, long count) throws IOException {
        frame(HEADERS, END_STREAM, stream, headerBlock("GET", "/", "pod", new String[0]));
        repeat(CONTINUATION, 0, stream, new byte[0], count);
    }

    /**
     * An HPACK bomb (RFC 9113 section 10.5.1): a request whose header block adds one field of {@code valueLength}
     * bytes to the decoder's dynamic table, then refers to it {@code references} times with one byte each, so that a
     * block of about {@code references} bytes decodes to {@code references} times the field.
     */
    void hpackBomb(int stream, String path, int valueLength, int references) throws IOException {
        ByteArrayOutputStream block = new ByteArrayOutputStream();
        block.writeBytes(headerBlock("GET", path, "pod", new String[0]));
        block.write(0x40); // a literal with incremental indexing, its name a literal too: dynamic table entry 62
        hpackString(block, "x-bomb".getBytes(StandardCharsets.US_ASCII));
        hpackString(block, "b".repeat(valueLength).getBytes(StandardCharsets.US_ASCII));
        for (int i = 0; i < references; i++) {
            block.write(0x80 | 62); // an indexed field: dynamic table entry 62
        }
        frame(HEADERS, END_HEADERS | END_STREAM, stream, block.toByteArray());
    }

    /** A string without Huffman coding, its length an HPACK integer with a 7-bit prefix. */
    private static void hpackString(ByteArrayOutputStream block, byte[] bytes) {
        int length = bytes.length;
        if (length < 127) {
            block.write(length);
        } else {
            block.write(127);
            length -= 127;
            while (length >= 128) {
                block.write((length & 0x7f) | 0x80);
                length >>>= 7;
            }
            block.write(length);
        }
        block.writeBytes(bytes);
    }

    /** RST_STREAM with {@code code} on {@code stream}. */
    void reset(int stream, int code) throws IOException {
        frame(RST_STREAM, 0, stream, java.nio.ByteBuffer.allocate(4).putInt(code).array());
    }

    /** A request without body and its RST_STREAM in one write: the server reads the reset with the request. */
    synchronized void headersAndReset(int stream, String method, String path, int code) throws IOException {
        ByteArrayOutputStream both = new ByteArrayOutputStream();
        both.writeBytes(frameBytes(HEADERS, END_HEADERS | END_STREAM, stream, headerBlock(method, path, "pod", new String[0])));
        both.writeBytes(frameBytes(RST_STREAM, 0, stream, java.nio.ByteBuffer.allocate(4).putInt(code).array()));
        out.write(both.toByteArray());
        out.flush();
    }

    /** WINDOW_UPDATE on {@code stream} (0: the connection) by {@code increment}, which may be 0 (a protocol error). */
    void windowUpdate(int stream, int increment) throws IOException {
        frame(WINDOW_UPDATE, 0, stream, java.nio.ByteBuffer.allocate(4).putInt(increment).array());
    }

    /** {@code count} copies of one frame, sent as fast as the connection takes them. */
    void repeat(int type, int flags, int stream, byte[] payload, long count) throws IOException {
        byte[] one = frameBytes(type, flags, stream, payload);
        byte[] batch = new byte[one.length * 1_000];
        for (int i = 0; i < 1_000; i++) {
            System.arraycopy(one, 0, batch, i * one.length, one.length);
        }
        for (long sent = 0; sent < count; sent += 1_000) {
            out.write(batch, 0, (int) Math.min(1_000, count - sent) * one.length);
        }
        out.flush();
    }

    private static byte[] headerBlock(String method, String path, String authority, String[] nameValues) {
        ByteArrayOutputStream block = new ByteArrayOutputStream();
        // Helidon 4.5 wants pseudo-header names from the static table (2 :method, 4 :path, 6 :scheme, 1 :authority)
        indexedName(block, 2, method);
        indexedName(block, 4, path);
        indexedName(block, 6, "http");
        indexedName(block, 1, authority);
        for (int i = 0; i < nameValues.length; i += 2) {
            block.write(0); // a literal without indexing, its name a literal too
            string(block, nameValues[i]);
            string(block, nameValues[i + 1]);
        }
        return block.toByteArray();
    }

    void data(int stream, byte[] bytes, boolean end) throws IOException {
        frame(DATA, end ? END_STREAM : 0, stream, bytes);
    }

    /** The DATA bytes of the stream's answer, read until its end (other streams' frames are skipped). */
    String answer(int stream) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        while (true) {
            Frame frame = nextAnswered();
            if (frame.type == GOAWAY) {
                throw new IOException("GOAWAY, error code " + frame.payload[7]);
            } else if (frame.stream == stream && (frame.type == DATA || frame.type == HEADERS)) {
                if (frame.type == DATA) {
                    body.write(frame.payload);
                }
                if ((frame.flags & END_STREAM) != 0) {
                    return body.toString(StandardCharsets.UTF_8);
                }
            }
        }
    }

    /** What to do after each DATA frame of an answer. */
    @FunctionalInterface
    interface AfterData {
        void run() throws IOException;
    }

    /**
     * The length of the stream's answer, read until its end: each DATA frame is given back to the flow-control
     * windows of the stream and of the connection (as a client reading the answer does), then {@code afterData} runs.
     */
    long answerLength(int stream, AfterData afterData) throws IOException {
        long length = 0;
        while (true) {
            Frame frame = readFrame();
            if (frame.type == GOAWAY) {
                throw new IOException("GOAWAY, error code " + frame.payload[7] + " after " + length + " bytes");
            } else if (frame.type == SETTINGS && (frame.flags & 1) == 0) {
                frame(SETTINGS, 1, 0, new byte[0]);
            } else if (frame.stream == stream && (frame.type == DATA || frame.type == HEADERS)) {
                if (frame.type == DATA && frame.payload.length > 0) {
                    length += frame.payload.length;
                    windowUpdate(stream, frame.payload.length);
                    windowUpdate(0, frame.payload.length);
                    afterData.run();
                }
                if ((frame.flags & END_STREAM) != 0) {
                    return length;
                }
            }
        }
    }

    /** The error code of a GOAWAY that came within {@code millis} (frames before it skipped), or -1. */
    int goAwayCodeWithin(int millis) throws IOException {
        Frame frame = goAwayFrameWithin(millis);
        return frame == null ? -1 : java.nio.ByteBuffer.wrap(frame.payload, 4, 4).getInt();
    }

    /** The GOAWAY that came within {@code millis} (frames before it skipped) as "last stream N, code C"; null: none. */
    @org.jspecify.annotations.Nullable String goAwaySaidWithin(int millis) throws IOException {
        Frame frame = goAwayFrameWithin(millis);
        if (frame == null) {
            return null;
        }
        java.nio.ByteBuffer payload = java.nio.ByteBuffer.wrap(frame.payload);
        return "last stream " + (payload.getInt() & 0x7fffffff) + ", code " + payload.getInt();
    }

    private @org.jspecify.annotations.Nullable Frame goAwayFrameWithin(int millis) throws IOException {
        socket.setSoTimeout(millis);
        try {
            Frame frame;
            do {
                frame = readFrame();
            } while (frame.type != GOAWAY);
            return frame;
        } catch (java.io.EOFException | java.net.SocketException | java.net.SocketTimeoutException e) {
            return null;
        }
    }

    /** Whether a GOAWAY came within {@code millis} (frames before it skipped). */
    boolean goAwayWithin(int millis) throws IOException {
        socket.setSoTimeout(millis);
        try {
            while (readFrame().type != GOAWAY) {
                continue;
            }
            return true;
        } catch (java.io.EOFException | java.net.SocketException | java.net.SocketTimeoutException e) {
            return false;
        }
    }

    /**
     * The RST_STREAM frames the server sent until it closed the connection (other frames skipped); -1 when it was still
     * open after {@code millis}.
     */
    /**
     * What the server sends on {@code stream} within {@code millis}, answering its SETTINGS and PINGs: "HEADERS", "DATA",
     * "RST_STREAM code" and "GOAWAY code", each with " end" when it ends the stream, until the stream ends or the
     * connection does.
     */
    java.util.List<String> framesOf(int stream, int millis) throws IOException {
        socket.setSoTimeout(millis);
        java.util.List<String> seen = new java.util.ArrayList<>();
        try {
            while (true) {
                Frame frame = nextAnswered();
                if (frame.type == GOAWAY) {
                    seen.add("GOAWAY " + frame.payload[7]);
                    return seen;
                } else if (frame.stream == stream) {
                    boolean end = (frame.flags & END_STREAM) != 0 && (frame.type == DATA || frame.type == HEADERS);
                    seen.add(switch (frame.type) {
                        case DATA -> "DATA";
                        case HEADERS -> "HEADERS";
                        case RST_STREAM -> "RST_STREAM " + frame.payload[3];
                        default -> "frame " + frame.type;
                    } + (end ? " end" : ""));
                    if (end || frame.type == RST_STREAM) {
                        return seen;
                    }
                }
            }
        } catch (java.io.EOFException | java.net.SocketException | java.net.SocketTimeoutException e) {
            seen.add(e.getClass().getSimpleName());
            return seen;
        }
    }

    int resetsUntilClosed(int millis) throws IOException {
        socket.setSoTimeout(millis);
        int resets = 0;
        try {
            while (true) {
                if (readFrame().type == RST_STREAM) {
                    resets++;
                }
            }
        } catch (java.io.EOFException | java.net.SocketException e) {
            return resets; // the end of the stream, or a reset
        } catch (java.net.SocketTimeoutException e) {
            return -1;
        }
    }

    /** Whether the server closed the connection within {@code millis}, reading (and skipping) frames until then. */
    boolean closedWithin(int millis) throws IOException {
        socket.setSoTimeout(millis);
        try {
            while (true) {
                readFrame();
            }
        } catch (java.io.EOFException | java.net.SocketException e) {
            return true; // the end of the stream, or a reset
        } catch (java.net.SocketTimeoutException e) {
            return false;
        }
    }

    private record Frame(int type, int flags, int stream, byte[] payload) {
    }

    /** The next frame that is neither a SETTINGS nor a PING from the server; those are acknowledged on the way. */
    private Frame nextAnswered() throws IOException {
        while (true) {
            Frame frame = readFrame();
            if (frame.type == SETTINGS && (frame.flags & 1) == 0) {
                frame(SETTINGS, 1, 0, new byte[0]);
            } else if (frame.type == PING && (frame.flags & 1) == 0) {
                frame(PING, 1, 0, frame.payload);
            } else if (!(frame.type == SETTINGS || frame.type == PING)) {
                return frame;
            }
        }
    }

    private Frame readFrame() throws IOException {
        byte[] head = new byte[9];
        in.readFully(head);
        int length = ((head[0] & 0xff) << 16) | ((head[1] & 0xff) << 8) | (head[2] & 0xff);
        int stream = ((head[5] & 0x7f) << 24) | ((head[6] & 0xff) << 16) | ((head[7] & 0xff) << 8) | (head[8] & 0xff);
        byte[] payload = new byte[length];
        in.readFully(payload);
        return new Frame(head[3], head[4], stream, payload);
    }

    private static void indexedName(ByteArrayOutputStream block, int index, String value) {
        block.write(index); // a literal without indexing, its name from the static table (index < 15)
        string(block, value);
    }

    private static void string(ByteArrayOutputStream block, String s) {
        byte[] bytes = s.getBytes(StandardCharsets.US_ASCII);
        if (bytes.length > 126) {
            throw new IllegalArgumentException("a longer string than this client encodes");
        }
        block.write(bytes.length);
        block.writeBytes(bytes);
    }

    private synchronized void frame(int type, int flags, int stream, byte[] payload) throws IOException {
        out.write(frameBytes(type, flags, stream, payload));
        out.flush();
    }

    private static byte[] frameBytes(int type, int flags, int stream, byte[] payload) {
        byte[] frame = new byte[9 + payload.length];
        frame[0] = (byte) (payload.length >> 16);
        frame[1] = (byte) (payload.length >> 8);
        frame[2] = (byte) payload.length;
        frame[3] = (byte) type;
        frame[4] = (byte) flags;
        java.nio.ByteBuffer.wrap(frame, 5, 4).putInt(stream);
        System.arraycopy(payload, 0, frame, 9, payload.length);
        return frame;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
