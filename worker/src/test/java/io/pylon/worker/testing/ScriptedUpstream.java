package io.pylon.worker.testing;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.zip.CRC32;

/**
 * An HTTP/1.1 upstream on a raw socket whose answers are scripted by path, byte for byte, so that the same upstream
 * behaviour can be put behind the Worker and behind another proxy: sized and chunked bodies of any length, trickling
 * streams, server-sent events, 1xx, 204, 304, HEAD, HTTP/1.0 and close-delimited answers, a body cut short, a
 * Content-Length that lies, and a request body echo that reports how the body was framed. Keeps connections alive
 * as the request asks. Thread-safe: one virtual thread per connection; the request log is a concurrent queue.
 *
 * <p>Paths: {@code /bytes/N}, {@code /chunked/N}, {@code /trickle/COUNT/GAP_MS}, {@code /sse/COUNT/GAP_MS},
 * {@code /status/204}, {@code /status/304}, {@code /hints} (103 then 200), {@code /close-early/N} (announces N,
 * sends half, closes), {@code /lie-long} (announces 5 bytes, sends 10), {@code /http10/N} (HTTP/1.0, close-delimited),
 * {@code /echo} (the request body's length, CRC-32 and framing), {@code /delay/MS} (answers after MS ms),
 * {@code /hold/KEY} (never answers; notes how long the proxy kept the connection, {@link #awaitReleased}),
 * {@code /hold/KEY/part} (the same after a chunked head and one chunk), {@code /utf8-header} (a header value in
 * UTF-8 bytes), {@code /own-request-id} (an {@code X-Request-Id} of its own), {@code /status/CODE},
 * {@code /fail-first/KEY} (503
 * the first time, then 200), {@code /redirect/PATH} (302 to this upstream's absolute {@code /redirect/PATH/done}), {@code /health} (the
 * status set by {@link #healthStatus}), anything else:
 * 200 with the request's target.
 */
public final class ScriptedUpstream implements AutoCloseable {
    /** What the upstream received: request line, headers (names as sent) and the body's length. */
    public record Seen(String requestLine, List<String[]> headers, long bodyLength) {
        public String header(String name) {
            for (String[] h : headers) {
                if (h[0].equalsIgnoreCase(name)) {
                    return h[1];
                }
            }
            return null;
        }
    }

    private final ServerSocket server;
    private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
    private final ConcurrentLinkedQueue<Seen> seen = new ConcurrentLinkedQueue<>();
    private final java.util.concurrent.atomic.AtomicInteger reading = new java.util.concurrent.atomic.AtomicInteger();
    private final ConcurrentLinkedQueue<Socket> open = new ConcurrentLinkedQueue<>();
    private final java.util.Set<String> failed = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private volatile int healthStatus = 200;
    // for each held request's key: how long after its request the proxy closed the connection (ms)
    private final java.util.Map<String, Long> released = new java.util.concurrent.ConcurrentHashMap<>();

    private ScriptedUpstream(ServerSocket server) {
        this.server = server;
    }

    public static ScriptedUpstream start() throws IOException {
        ScriptedUpstream upstream = new ScriptedUpstream(new ServerSocket(0, 512, InetAddress.getByName("127.0.0.1")));
        upstream.threads.submit(upstream::accept);
        return upstream;
    }

    public int port() {
        return server.getLocalPort();
    }

    public String url() {
        return "http://127.0.0.1:" + port();
    }

    /** The requests received so far, oldest first. */
    public List<Seen> seen() {
        return List.copyOf(seen);
    }

    /** What {@code GET /health} answers from now on (200 at first). */
    public void healthStatus(int status) {
        healthStatus = status;
    }

    /**
     * Forgets the requests seen so far, once none is half-read: a request whose body the gateway cut is recorded when
     * its connection ends, which may come after the test that sent it (waits at most 5 s).
     */
    /** How many requests' bodies are being read now. */
    public int reading() {
        return reading.get();
    }

    public void clearSeen() {
        long end = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(5);
        while (reading.get() > 0 && System.nanoTime() < end) {
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        seen.clear();
    }

    /**
     * How long after the held request {@code key} arrived the proxy closed its connection (ms); -1 when it had not
     * within {@code waitMillis}.
     */
    public long awaitReleased(String key, long waitMillis) throws InterruptedException {
        long end = System.nanoTime() + java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(waitMillis);
        while (System.nanoTime() < end) {
            Long after = released.get(key);
            if (after != null) {
                return after;
            }
            Thread.sleep(10);
        }
        return -1;
    }

    /** Whether the held request {@code key} reached the upstream. */
    public boolean holds(String key) {
        return seen.stream().anyMatch(s -> s.requestLine().startsWith("GET /hold/" + key + " ")
                || s.requestLine().startsWith("GET /hold/" + key + "/"));
    }

    /** The byte at {@code index} of every generated body: what a client checks a body against. */
    public static byte patternByte(long index) {
        return (byte) ('a' + index % 26);
    }

    /** The CRC-32 of a generated body of {@code length} bytes. */
    public static long patternCrc(long length) {
        CRC32 crc = new CRC32();
        byte[] block = pattern(0, 26 * 2048); // the pattern repeats every 26 bytes
        for (long left = length; left > 0; ) {
            int n = (int) Math.min(block.length, left);
            crc.update(block, 0, n);
            left -= n;
        }
        return crc.getValue();
    }

    private static byte[] pattern(long offset, int n) {
        byte[] bytes = new byte[n];
        for (int i = 0; i < n; i++) {
            bytes[i] = patternByte(offset + i);
        }
        return bytes;
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket socket = server.accept();
                open.add(socket);
                threads.submit(() -> serve(socket));
            } catch (IOException e) {
                return;
            }
        }
    }

    private void serve(Socket socket) {
        try (socket) {
            socket.setTcpNoDelay(true);
            InputStream in = new BufferedInputStream(socket.getInputStream());
            OutputStream out = socket.getOutputStream();
            while (true) {
                String head = readHead(in);
                if (head == null) {
                    return;
                }
                String[] lines = head.split("\r\n");
                List<String[]> headers = new ArrayList<>();
                for (int i = 1; i < lines.length; i++) {
                    int colon = lines[i].indexOf(':');
                    headers.add(new String[] {lines[i].substring(0, colon).trim(), lines[i].substring(colon + 1).trim()});
                }
                String[] request = lines[0].split(" ");
                Seen request0 = new Seen(lines[0], headers, 0);
                boolean http10 = request[2].equals("HTTP/1.0");
                String connection = lower(request0.header("connection"));
                boolean keepAlive = http10 ? connection.contains("keep-alive") : !connection.contains("close");
                if ("100-continue".equalsIgnoreCase(request0.header("expect"))) {
                    out.write("HTTP/1.1 100 Continue\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
                    out.flush();
                }
                if (request[1].startsWith("/early/")) {
                    // an answer before the body, as to an upload it refuses; then the upstream reads no more of it and,
                    // after a while, closes (a reset, with the body unread), as servers that give up on a body do
                    seen.add(request0);
                    write(out, "HTTP/1.1 401 Unauthorized\r\nContent-Length: 6\r\nConnection: close\r\n\r\nno way");
                    out.flush();
                    socket.shutdownOutput();
                    sleep(2_000);
                    return;
                }
                String framing = request0.header("transfer-encoding") != null ? "chunked"
                        : request0.header("content-length") != null ? "length" : "none";
                CRC32 crc = new CRC32();
                long bodyLength;
                reading.incrementAndGet();
                try {
                    bodyLength = readBody(in, request0, crc);
                    seen.add(new Seen(lines[0], headers, bodyLength));
                } finally {
                    reading.decrementAndGet();
                }
                boolean head0 = request[0].equals("HEAD");
                String target = request[1];
                String path = target.contains("?") ? target.substring(0, target.indexOf('?')) : target;
                if (!answer(in, out, path, target, head0, keepAlive, http10, bodyLength, crc.getValue(), framing)) {
                    return;
                }
                out.flush();
                if (!keepAlive) {
                    return;
                }
            }
        } catch (IOException | RuntimeException e) {
            // the client went away or sent garbage: the connection ends
        } finally {
            open.remove(socket);
        }
    }

    /** @return whether the connection may carry another request */
    private boolean answer(InputStream in, OutputStream out, String path, String target, boolean head, boolean keepAlive,
                           boolean http10, long bodyLength, long crc, String framing) throws IOException {
        String[] parts = path.split("/");
        String kind = parts.length > 1 ? parts[1] : "";
        String conn = keepAlive ? (http10 ? "Connection: keep-alive\r\n" : "") : "Connection: close\r\n";
        switch (kind) {
            case "bytes" -> {
                long n = Long.parseLong(parts[2]);
                write(out, "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: " + n + "\r\n"
                        + conn + "\r\n");
                if (!head) {
                    writePattern(out, n);
                }
            }
            case "chunked" -> {
                long n = Long.parseLong(parts[2]);
                write(out, "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nTransfer-Encoding: chunked\r\n"
                        + conn + "\r\n");
                if (!head) {
                    long offset = 0;
                    while (offset < n) {
                        int size = (int) Math.min(4096, n - offset);
                        write(out, Integer.toHexString(size) + "\r\n");
                        out.write(pattern(offset, size));
                        write(out, "\r\n");
                        offset += size;
                    }
                    write(out, "0\r\n\r\n");
                }
            }
            case "trickle", "sse" -> {
                int count = Integer.parseInt(parts[2]);
                long gap = Long.parseLong(parts[3]);
                String type = kind.equals("sse") ? "text/event-stream\r\nCache-Control: no-cache" : "text/plain";
                write(out, "HTTP/1.1 200 OK\r\nContent-Type: " + type + "\r\nTransfer-Encoding: chunked\r\n" + conn
                        + "\r\n");
                out.flush();
                if (!head) {
                    for (int i = 0; i < count; i++) {
                        String event = kind.equals("sse") ? "data: event " + i + "\n\n" : "tick " + i + "\n";
                        write(out, Integer.toHexString(event.length()) + "\r\n" + event + "\r\n");
                        out.flush();
                        sleep(gap);
                    }
                    write(out, "0\r\n\r\n");
                }
            }
            case "status" -> {
                int code = Integer.parseInt(parts[2]);
                boolean empty = code == 204 || code == 304;
                write(out, "HTTP/1.1 " + code + (code == 204 ? " No Content" : code == 304 ? " Not Modified" : " Status")
                        + "\r\n" + (code == 304 ? "ETag: \"v1\"\r\nCache-Control: max-age=60\r\n" : "")
                        + (empty ? "" : "Content-Length: 0\r\n") + conn + "\r\n");
            }
            case "reason" -> { // /reason/<code>/<reason phrase, percent-encoded>
                String reason = parts.length > 3 ? java.net.URLDecoder.decode(parts[3], StandardCharsets.ISO_8859_1) : "";
                write(out, "HTTP/1.1 " + parts[2] + " " + reason + "\r\nContent-Length: 0\r\n" + conn + "\r\n");
            }
            case "health" -> write(out, "HTTP/1.1 " + healthStatus + " Health\r\nContent-Length: 0\r\n" + conn + "\r\n");
            case "fail-first" -> {
                boolean first = failed.add(path);
                String body = first ? "" : "ok";
                write(out, "HTTP/1.1 " + (first ? "503 Unavailable" : "200 OK") + "\r\nContent-Length: " + body.length()
                        + "\r\n" + conn + "\r\n" + (head ? "" : body));
            }
            case "redirect" -> {
                String to = "http://127.0.0.1:" + port() + path + "/done";
                write(out, "HTTP/1.1 302 Found\r\nLocation: " + to + "\r\nContent-Location: " + to
                        + "\r\nContent-Length: 0\r\n" + conn + "\r\n");
            }
            case "hints" -> {
                write(out, "HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload\r\n\r\n");
                out.flush();
                write(out, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n" + conn + "\r\n" + (head ? "" : "ok"));
            }
            case "close-early" -> {
                long n = Long.parseLong(parts[2]);
                write(out, "HTTP/1.1 200 OK\r\nContent-Length: " + n + "\r\n\r\n");
                if (!head) {
                    writePattern(out, n / 2);
                }
                out.flush();
                return false;
            }
            case "utf8-header" -> {
                // a header value in UTF-8 bytes (obs-text to HTTP), as servers send file names
                write(out, "HTTP/1.1 200 OK\r\nContent-Disposition: attachment; filename=\""
                        + new String("café.txt".getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1)
                        + "\"\r\nContent-Length: 2\r\n" + conn + "\r\n" + (head ? "" : "ok"));
            }
            case "gzip" -> {
                // a body the upstream compressed itself, as APIs behind a gateway often do
                java.io.ByteArrayOutputStream packed = new java.io.ByteArrayOutputStream();
                try (java.util.zip.GZIPOutputStream gzip = new java.util.zip.GZIPOutputStream(packed)) {
                    gzip.write(("compressed by the upstream ".repeat(200)).getBytes(StandardCharsets.US_ASCII));
                }
                write(out, "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Encoding: gzip\r\n"
                        + "Vary: Accept-Encoding\r\nContent-Length: " + packed.size() + "\r\n" + conn + "\r\n");
                if (!head) {
                    out.write(packed.toByteArray());
                }
            }
            case "own-request-id" -> // an upstream that names the request itself, as some frameworks do
                    write(out, "HTTP/1.1 200 OK\r\nX-Request-Id: upstream-own\r\nContent-Length: 2\r\n" + conn + "\r\n"
                            + (head ? "" : "ok"));
            case "repeated-headers" -> {
                // fields sent more than once, as servers send cookies, links and cache directives
                write(out, "HTTP/1.1 200 OK\r\nSet-Cookie: a=1; Path=/\r\nX-Multi: one\r\nSet-Cookie: b=2, c=3; "
                        + "Expires=Wed, 21 Oct 2026 07:28:00 GMT\r\nLink: </a.css>; rel=preload\r\nX-Multi: two\r\n"
                        + "Link: </b.js>; rel=preload\r\nCache-Control: no-cache\r\nCache-Control: no-store\r\n"
                        + "Vary: Accept\r\nVary: Origin\r\nContent-Length: 2\r\n" + conn + "\r\n" + (head ? "" : "ok"));
            }
            case "lie-long" -> {
                write(out, "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n" + (head ? "" : "helloEXTRA"));
                out.flush();
                return false;
            }
            case "http10" -> {
                long n = Long.parseLong(parts[2]);
                write(out, "HTTP/1.0 200 OK\r\nContent-Type: application/octet-stream\r\n\r\n");
                if (!head) {
                    writePattern(out, n);
                }
                out.flush();
                return false;
            }
            case "delay" -> {
                sleep(Long.parseLong(parts[2]));
                String body = "delayed " + parts[2];
                write(out, "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: " + body.length() + "\r\n"
                        + conn + "\r\n" + (head ? "" : body));
            }
            case "hold" -> {
                long start = System.nanoTime();
                if (parts.length > 3 && parts[3].equals("part")) {
                    write(out, "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n"
                            + "5\r\npart1\r\n");
                    out.flush();
                }
                try {
                    while (in.read() >= 0) {
                        // nothing more is expected: waits for the proxy to close
                    }
                } catch (IOException e) {
                    // a reset is a close too
                }
                released.put(parts[2], java.util.concurrent.TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
                return false;
            }
            case "echo" -> {
                String body = bodyLength + " " + crc + " " + framing;
                write(out, "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: " + body.length() + "\r\n"
                        + conn + "\r\n" + (head ? "" : body));
            }
            default -> {
                String body = "target " + target;
                write(out, "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: " + body.length() + "\r\n"
                        + conn + "\r\n" + (head ? "" : body));
            }
        }
        return true;
    }

    private static long readBody(InputStream in, Seen request, CRC32 crc) throws IOException {
        byte[] buffer = new byte[64 * 1024];
        if (request.header("transfer-encoding") != null) {
            long total = 0;
            while (true) {
                String line = readLine(in);
                int semicolon = line.indexOf(';');
                int size = Integer.parseInt((semicolon < 0 ? line : line.substring(0, semicolon)).trim(), 16);
                if (size == 0) {
                    while (!readLine(in).isEmpty()) {
                        // trailers
                    }
                    return total;
                }
                long left = size;
                while (left > 0) {
                    int n = in.read(buffer, 0, (int) Math.min(buffer.length, left));
                    if (n < 0) {
                        throw new IOException("request body cut short");
                    }
                    crc.update(buffer, 0, n);
                    left -= n;
                }
                total += size;
                readLine(in);
            }
        }
        String length = request.header("content-length");
        if (length == null) {
            return 0;
        }
        long left = Long.parseLong(length);
        long total = left;
        while (left > 0) {
            int n = in.read(buffer, 0, (int) Math.min(buffer.length, left));
            if (n < 0) {
                throw new IOException("request body cut short");
            }
            crc.update(buffer, 0, n);
            left -= n;
        }
        return total;
    }

    private static void writePattern(OutputStream out, long n) throws IOException {
        byte[] block = pattern(0, 26 * 2048);
        long left = n;
        while (left > 0) {
            int size = (int) Math.min(block.length, left);
            out.write(block, 0, size);
            left -= size;
        }
    }

    private static void write(OutputStream out, String text) throws IOException {
        out.write(text.getBytes(StandardCharsets.ISO_8859_1));
    }

    private static String lower(String value) {
        return value == null ? "" : value.toLowerCase(Locale.ROOT);
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        while (matched < 4) {
            int b = in.read();
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

    private static String readLine(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        for (int b; (b = in.read()) >= 0; ) {
            if (b == '\n') {
                String text = line.toString(StandardCharsets.ISO_8859_1);
                return text.endsWith("\r") ? text.substring(0, text.length() - 1) : text;
            }
            line.write(b);
        }
        throw new IOException("connection closed in a line");
    }

    @Override
    public void close() throws IOException {
        server.close();
        for (Socket socket : open) {
            socket.close();
        }
        threads.shutdownNow();
    }
}
