package io.pylon.core.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Clients of an answer given before the request body is read (a 413 by the declared length, a 401): one that writes
 * the whole body before reading ({@link RawWire#send} with {@link #post}), one that never stops sending, one that
 * stops sending but keeps its connection open. Plain sockets, as a pod's lingering close is seen on the wire.
 */
public final class LingeringClients {
    private LingeringClients() {
    }

    /** A POST of {@code size} bytes to {@code path}, headers and body in one array. */
    public static byte[] post(String path, int size, String... headers) {
        StringBuilder head = new StringBuilder("POST " + path + " HTTP/1.1\r\nHost: x\r\n"
                + "Content-Type: application/json\r\nContent-Length: " + size + "\r\n");
        for (String header : headers) {
            head.append(header).append("\r\n");
        }
        byte[] start = head.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1);
        byte[] request = Arrays.copyOf(start, start.length + size);
        Arrays.fill(request, start.length, request.length, (byte) 'x');
        return request;
    }

    /**
     * A POST of {@code size} bytes with Java's HttpClient over HTTP/1.1, which writes the body while it waits for the
     * answer.
     */
    public static java.net.http.HttpResponse<String> javaPost(java.net.URI uri, int size, String... headers) {
        java.net.http.HttpRequest.Builder request = java.net.http.HttpRequest.newBuilder(uri)
                .version(java.net.http.HttpClient.Version.HTTP_1_1)
                .timeout(Duration.ofSeconds(60))
                .POST(java.net.http.HttpRequest.BodyPublishers.ofByteArray(new byte[size]));
        if (headers.length > 0) {
            request.headers(headers);
        }
        return TestPods.send(request.build());
    }

    /**
     * What a client that never stopped sending saw: what it read (the answer), how long it could write before the
     * pod cut the connection, and how many body bytes it wrote.
     */
    public record Endless(String response, Duration cutAfter, long bytesSent, boolean cut) {
    }

    /**
     * Declares a 1 TB body to {@code path} and writes it until the pod cuts the connection (at most {@code max}),
     * reading whatever comes back meanwhile. {@code pauseMillis} between 8 KiB writes (0: as fast as the socket
     * takes them).
     */
    public static Endless sendForever(String host, int port, String path, int pauseMillis, Duration max,
                                      String... headers) throws Exception {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), 5000);
            ByteArrayOutputStream received = new ByteArrayOutputStream();
            Thread reader = Thread.ofVirtual().start(() -> readAll(socket, received));
            StringBuilder head = new StringBuilder("POST " + path + " HTTP/1.1\r\nHost: x\r\n"
                    + "Content-Type: application/json\r\nContent-Length: 1000000000000\r\n");
            for (String header : headers) {
                head.append(header).append("\r\n");
            }
            OutputStream out = socket.getOutputStream();
            byte[] chunk = new byte[8192];
            Arrays.fill(chunk, (byte) 'x');
            long start = System.nanoTime();
            long end = start + max.toNanos();
            AtomicLong sent = new AtomicLong();
            boolean cut = false;
            try {
                out.write(head.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1));
                while (System.nanoTime() < end) {
                    out.write(chunk);
                    sent.addAndGet(chunk.length);
                    if (pauseMillis > 0) {
                        Thread.sleep(pauseMillis);
                    }
                }
            } catch (IOException e) {
                cut = true;
            }
            Duration after = Duration.ofNanos(System.nanoTime() - start);
            socket.close();
            reader.join(Duration.ofSeconds(10));
            synchronized (received) {
                return new Endless(received.toString(StandardCharsets.ISO_8859_1), after, sent.get(), cut);
            }
        }
    }

    /** What a client that stopped sending mid-body saw: the answer, and whether the pod half-closed. */
    public record Silent(String response, boolean halfClosed, Socket socket) implements AutoCloseable {
        @Override
        public void close() throws IOException {
            socket.close();
        }
    }

    /**
     * Declares twice {@code size} bytes to {@code path}, writes {@code size}, then sends nothing more and keeps the
     * connection open (the caller closes it): returns once the pod's answer and its half-close (EOF) were read.
     */
    public static Silent sendThenWait(String host, int port, String path, int size) throws IOException {
        Socket socket = new Socket();
        socket.connect(new InetSocketAddress(host, port), 5000);
        socket.setSoTimeout(30_000);
        byte[] request = post(path, 2 * size);
        socket.getOutputStream().write(request, 0, request.length - size);
        socket.getOutputStream().flush();
        ByteArrayOutputStream received = new ByteArrayOutputStream();
        boolean eof = readAll(socket, received);
        return new Silent(received.toString(StandardCharsets.ISO_8859_1), eof, socket);
    }

    /** Connections in a lingering close now, from the body of a pod's health answer (its listener check). */
    public static int lingering(String health) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\"lingering\":(\\d+)").matcher(health);
        if (!m.find()) {
            throw new AssertionError("no lingering count in " + health);
        }
        return Integer.parseInt(m.group(1));
    }

    /** Reads until EOF (true) or a failure (false). */
    private static boolean readAll(Socket socket, ByteArrayOutputStream received) {
        byte[] buffer = new byte[8192];
        try {
            InputStream in = socket.getInputStream();
            for (int n; (n = in.read(buffer)) >= 0; ) {
                synchronized (received) {
                    received.write(buffer, 0, n);
                }
            }
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
