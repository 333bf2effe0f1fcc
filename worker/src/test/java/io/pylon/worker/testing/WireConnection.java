package io.pylon.worker.testing;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.zip.CRC32;

/**
 * One client connection on a plain socket that reads responses the way a pooled HTTP/1.1 client does: each message
 * by its own framing (Content-Length, chunked to its last chunk, or to the close), interim 1xx answers apart, so a
 * test can send the next request on the same connection and see whether the previous response was framed right.
 * Bodies are counted and checksummed, not kept (100 MiB bodies), apart from their first bytes. Not thread-safe: one
 * test thread drives it.
 */
public final class WireConnection implements AutoCloseable {
    private static final int KEPT = 8192;

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private long sentAt;

    /** How the body of a response was delimited on the wire. */
    public enum Framing { LENGTH, CHUNKED, CLOSE, NONE }

    /**
     * One final response: its head, the interim (1xx) statuses before it, the body's framing, length, CRC-32 and first
     * bytes, whether the body arrived whole (all its length, its last chunk; a close-delimited body always), and when
     * the head and the first body byte arrived after the request was sent.
     */
    public record Message(String statusLine, int status, List<String[]> headers, List<Integer> interim, Framing framing,
                          long length, long crc, String start, boolean complete, long headMillis,
                          long firstByteMillis) {
        public String header(String name) {
            List<String> values = new ArrayList<>();
            for (String[] h : headers) {
                if (h[0].equalsIgnoreCase(name)) {
                    values.add(h[1]);
                }
            }
            return values.isEmpty() ? null : String.join(",", values);
        }

        public boolean has(String name) {
            return header(name) != null;
        }

        @Override
        public String toString() {
            return statusLine + " " + framing + " length=" + length + " complete=" + complete + " headers="
                    + headers.stream().map(h -> h[0] + ": " + h[1]).toList();
        }
    }

    private WireConnection(Socket socket) throws IOException {
        this.socket = socket;
        this.in = new BufferedInputStream(socket.getInputStream(), 64 * 1024);
        this.out = socket.getOutputStream();
    }

    public static WireConnection open(String host, int port) throws IOException {
        Socket socket = new Socket();
        socket.connect(new InetSocketAddress(host, port), 5000);
        socket.setSoTimeout(60_000);
        socket.setTcpNoDelay(true);
        return new WireConnection(socket);
    }

    /** Over a socket already connected (a TLS one, say). */
    public static WireConnection over(Socket socket) throws IOException {
        socket.setSoTimeout(60_000);
        socket.setTcpNoDelay(true);
        return new WireConnection(socket);
    }

    public WireConnection send(String request) throws IOException {
        return send(request.getBytes(StandardCharsets.ISO_8859_1));
    }

    public WireConnection send(byte[] bytes) throws IOException {
        sentAt = System.nanoTime();
        out.write(bytes);
        out.flush();
        return this;
    }

    public OutputStream output() {
        return out;
    }

    public static String get(String path, String host) {
        return "GET " + path + " HTTP/1.1\r\nHost: " + host + "\r\n\r\n";
    }

    /** Reads one response head, interim or final, and returns its status line (an {@code Expect: 100-continue}). */
    public String readStatusLine() throws IOException {
        String head = readHead();
        if (head == null) {
            throw new IOException("connection closed before a response");
        }
        return head.split("\r\n")[0];
    }

    /** Reads the next response to a request other than HEAD. */
    public Message read() throws IOException {
        return read(false);
    }

    /**
     * Reads the next final response (1xx ones before it are noted in {@link Message#interim()}).
     *
     * @param head whether it answers a HEAD request (its head only, whatever its length headers say)
     */
    public Message read(boolean head) throws IOException {
        List<Integer> interim = new ArrayList<>();
        while (true) {
            String headText = readHead();
            if (headText == null) {
                throw new IOException("connection closed before a response");
            }
            long headMillis = (System.nanoTime() - sentAt) / 1_000_000;
            String[] lines = headText.split("\r\n");
            String statusLine = lines[0];
            int status = Integer.parseInt(statusLine.split(" ")[1]);
            List<String[]> headers = new ArrayList<>();
            for (int i = 1; i < lines.length; i++) {
                int colon = lines[i].indexOf(':');
                headers.add(new String[] {lines[i].substring(0, colon).trim(), lines[i].substring(colon + 1).trim()});
            }
            if (status >= 100 && status < 200 && status != 101) {
                interim.add(status);
                continue;
            }
            return body(statusLine, status, headers, interim, head, headMillis);
        }
    }

    private Message body(String statusLine, int status, List<String[]> headers, List<Integer> interim, boolean head,
                         long headMillis) throws IOException {
        Message probe = new Message(statusLine, status, headers, interim, Framing.NONE, 0, 0, "", true, headMillis, -1);
        String encoding = probe.header("transfer-encoding");
        String length = probe.header("content-length");
        Body body = new Body();
        Framing framing;
        boolean complete;
        if (head || status == 204 || status == 304 || status == 101) {
            framing = Framing.NONE;
            complete = true;
        } else if (encoding != null && encoding.toLowerCase(Locale.ROOT).endsWith("chunked")) {
            framing = Framing.CHUNKED;
            complete = readChunked(body);
        } else if (length != null) {
            framing = Framing.LENGTH;
            complete = readLength(body, Long.parseLong(length.split(",")[0].trim()));
        } else {
            framing = Framing.CLOSE;
            readToClose(body);
            complete = true;
        }
        return new Message(statusLine, status, headers, interim, framing, body.length, body.crc.getValue(),
                body.start.toString(StandardCharsets.ISO_8859_1), complete, headMillis, body.firstByteMillis);
    }

    private final class Body {
        final CRC32 crc = new CRC32();
        final ByteArrayOutputStream start = new ByteArrayOutputStream();
        long length;
        long firstByteMillis = -1;

        void add(byte[] bytes, int n) {
            if (n <= 0) {
                return;
            }
            if (firstByteMillis < 0) {
                firstByteMillis = (System.nanoTime() - sentAt) / 1_000_000;
            }
            crc.update(bytes, 0, n);
            if (start.size() < KEPT) {
                start.write(bytes, 0, Math.min(n, KEPT - start.size()));
            }
            length += n;
        }
    }

    private boolean readLength(Body body, long length) throws IOException {
        byte[] buffer = new byte[64 * 1024];
        long left = length;
        while (left > 0) {
            int n = readSome(buffer, (int) Math.min(buffer.length, left));
            if (n < 0) {
                return false;
            }
            body.add(buffer, n);
            left -= n;
        }
        return true;
    }

    private boolean readChunked(Body body) throws IOException {
        byte[] buffer = new byte[64 * 1024];
        while (true) {
            String line = readLine();
            if (line == null) {
                return false;
            }
            int semicolon = line.indexOf(';');
            int size = Integer.parseInt((semicolon < 0 ? line : line.substring(0, semicolon)).trim(), 16);
            if (size == 0) {
                while (true) { // trailers, then the empty line
                    String trailer = readLine();
                    if (trailer == null) {
                        return false;
                    }
                    if (trailer.isEmpty()) {
                        return true;
                    }
                }
            }
            long left = size;
            while (left > 0) {
                int n = readSome(buffer, (int) Math.min(buffer.length, left));
                if (n < 0) {
                    return false;
                }
                body.add(buffer, n);
                left -= n;
            }
            String end = readLine();
            if (end == null || !end.isEmpty()) {
                return false;
            }
        }
    }

    private void readToClose(Body body) throws IOException {
        byte[] buffer = new byte[64 * 1024];
        int n;
        while ((n = readSome(buffer, buffer.length)) >= 0) {
            body.add(buffer, n);
        }
    }

    private int readSome(byte[] buffer, int max) throws IOException {
        try {
            return in.read(buffer, 0, max);
        } catch (SocketException e) {
            return -1; // reset: the peer is gone, as with EOF
        }
    }

    private String readHead() throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        while (matched < 4) {
            int b;
            try {
                b = in.read();
            } catch (SocketException e) {
                b = -1;
            }
            if (b < 0) {
                return null;
            }
            head.write(b);
            matched = (b == '\r' && (matched == 0 || matched == 2)) || (b == '\n' && (matched == 1 || matched == 3))
                    ? matched + 1 : (b == '\r' ? 1 : 0);
        }
        String text = head.toString(StandardCharsets.ISO_8859_1);
        return text.substring(0, text.length() - 4);
    }

    private String readLine() throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        while (true) {
            int b;
            try {
                b = in.read();
            } catch (SocketException e) {
                b = -1;
            }
            if (b < 0) {
                return null;
            }
            if (b == '\n') {
                String text = line.toString(StandardCharsets.ISO_8859_1);
                return text.endsWith("\r") ? text.substring(0, text.length() - 1) : text;
            }
            line.write(b);
        }
    }

    /** Whether the peer closes (EOF or reset) within {@code millis}, with no byte before it. */
    public boolean closesWithin(long millis) throws IOException {
        int before = socket.getSoTimeout();
        socket.setSoTimeout((int) millis);
        try {
            int b = in.read();
            if (b >= 0) {
                throw new AssertionError("expected the connection to close, got a byte: " + (char) b);
            }
            return true;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (SocketException e) {
            return true;
        } finally {
            if (!socket.isClosed()) {
                socket.setSoTimeout(before);
            }
        }
    }

    /** Ends the sending side (FIN) and keeps reading: a client that half-closes after its request. */
    public void halfClose() throws IOException {
        socket.shutdownOutput();
    }

    /** Closes with a reset (RST) instead of a FIN: a client that crashed or gave up hard. */
    public void reset() throws IOException {
        socket.setSoLinger(true, 0);
        socket.close();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
