package io.pylon.core.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Bytes on a plain socket, and every response that comes back until the server closes: what an attacker or an old
 * client sees on the wire, where java.net.http would hide framing (a second response, a missing close, chunking).
 */
public final class RawWire {
    private RawWire() {
    }

    public record Response(String statusLine, int status, Map<String, List<String>> headers, String body) {
        public String header(String name) {
            List<String> values = headers.get(name.toLowerCase(Locale.ROOT));
            return values == null ? null : String.join(",", values);
        }
    }

    /**
     * What came back for one write: the responses in order, whether the server closed the connection (EOF) before
     * {@code waitMillis} passed, and any bytes after the last complete response.
     */
    public record Exchange(List<Response> responses, boolean closed, String trailing) {
        public Response only() {
            if (responses.size() != 1) {
                throw new AssertionError("expected exactly one response, got " + responses.size() + ": " + responses
                        + " trailing=" + trailing);
            }
            return responses.getFirst();
        }
    }

    /**
     * Milliseconds from {@code t0} until the server closes {@code socket} (EOF or reset), reading and dropping what
     * comes first (an answer, a TLS alert); fails when the socket's read timeout passes first.
     */
    public static long msUntilClosed(Socket socket, long t0) throws IOException {
        InputStream in = socket.getInputStream();
        try {
            while (in.read() != -1) {
                // what comes before the close is not what is timed
            }
        } catch (SocketTimeoutException e) {
            throw new AssertionError("the server kept the connection open for " + socket.getSoTimeout() + " ms", e);
        } catch (IOException reset) {
            // closed with a reset: also closed
        }
        return (System.nanoTime() - t0) / 1_000_000;
    }

    /** What one read of {@code socket} returns (up to 4 KiB, as ASCII): the start of an answer; empty at EOF. */
    public static String firstRead(Socket socket) throws IOException {
        byte[] buffer = new byte[4096];
        int n = socket.getInputStream().read(buffer);
        return n < 0 ? "" : new String(buffer, 0, n, StandardCharsets.US_ASCII);
    }

    public static Exchange send(String host, int port, String request) throws IOException {
        return send(host, port, request.getBytes(StandardCharsets.ISO_8859_1), 3000);
    }

    /** Writes {@code request} (half-closing nothing), then reads until EOF or {@code waitMillis} of silence. */
    public static Exchange send(String host, int port, byte[] request, int waitMillis) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), 5000);
            socket.setSoTimeout(waitMillis);
            OutputStream out = socket.getOutputStream();
            try {
                out.write(request);
                out.flush();
            } catch (IOException e) {
                // the server may close while we still write (an early refusal); read what it answered
            }
            ByteArrayOutputStream received = new ByteArrayOutputStream();
            boolean closed = readUntilEof(socket.getInputStream(), received);
            return parse(received.toByteArray(), closed);
        }
    }

    private static boolean readUntilEof(InputStream in, ByteArrayOutputStream received) throws IOException {
        byte[] buffer = new byte[8192];
        try {
            for (int n; (n = in.read(buffer)) >= 0; ) {
                received.write(buffer, 0, n);
            }
            return true;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (java.net.SocketException e) {
            return true; // reset by the server: closed as well
        }
    }

    static Exchange parse(byte[] bytes, boolean closed) {
        String text = new String(bytes, StandardCharsets.ISO_8859_1);
        List<Response> responses = new ArrayList<>();
        int pos = 0;
        while (pos < text.length()) {
            int headEnd = text.indexOf("\r\n\r\n", pos);
            if (headEnd < 0 || !text.startsWith("HTTP/", pos)) {
                break;
            }
            String[] lines = text.substring(pos, headEnd).split("\r\n");
            Map<String, List<String>> headers = new LinkedHashMap<>();
            for (int i = 1; i < lines.length; i++) {
                int colon = lines[i].indexOf(':');
                headers.computeIfAbsent(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT), k -> new ArrayList<>())
                        .add(lines[i].substring(colon + 1).trim());
            }
            int status = Integer.parseInt(lines[0].split(" ")[1]);
            int bodyStart = headEnd + 4;
            String body;
            List<String> length = headers.get("content-length");
            List<String> encoding = headers.get("transfer-encoding");
            if (length != null) {
                int end = Math.min(text.length(), bodyStart + Integer.parseInt(length.getFirst()));
                body = text.substring(bodyStart, end);
                pos = end;
            } else if (encoding != null && encoding.getFirst().equalsIgnoreCase("chunked")) {
                StringBuilder chunks = new StringBuilder();
                int p = bodyStart;
                while (true) {
                    int lineEnd = text.indexOf("\r\n", p);
                    if (lineEnd < 0) {
                        p = text.length();
                        break;
                    }
                    int size = Integer.parseInt(text.substring(p, lineEnd).trim(), 16);
                    p = lineEnd + 2;
                    if (size == 0) {
                        int end = text.indexOf("\r\n", p);
                        p = end < 0 ? text.length() : end + 2;
                        break;
                    }
                    chunks.append(text, p, Math.min(text.length(), p + size));
                    p = Math.min(text.length(), p + size + 2);
                }
                body = chunks.toString();
                pos = p;
            } else {
                body = closed ? text.substring(bodyStart) : "";
                pos = closed ? text.length() : bodyStart;
            }
            responses.add(new Response(lines[0], status, headers, new String(
                    body.getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8)));
        }
        return new Exchange(responses, closed, text.substring(pos));
    }
}
