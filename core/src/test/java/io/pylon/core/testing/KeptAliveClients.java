package io.pylon.core.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Clients that send one request in a loop on kept-alive connections, as wrk does: each opens a new connection when an
 * answer says {@code Connection: close}, counts connects refused (a listener that closed) and records every request
 * that failed on an open connection (closed or reset before its whole answer: what wrk counts as read errors).
 *
 * <p>Threading: one platform thread a client; the counts are atomic and may be read from any thread; {@link #mark},
 * {@link #stop} and {@link #close} are the test thread's.
 */
public final class KeptAliveClients implements AutoCloseable {
    /** Told of every whole answer, on its client's thread. */
    @FunctionalInterface
    public interface Answers {
        /** @param sent when the request was sent ({@link System#nanoTime}); {@code head}: the answer's head */
        void answered(long sent, String head, int bodyLength);
    }

    private final AtomicBoolean running = new AtomicBoolean(true);
    private final AtomicLong answered = new AtomicLong();
    private final AtomicLong refused = new AtomicLong();
    private final AtomicLong mark = new AtomicLong(Long.MAX_VALUE);
    private final ConcurrentLinkedQueue<String> failed = new ConcurrentLinkedQueue<>();
    private final List<Thread> threads = new ArrayList<>();

    private KeptAliveClients() {
    }

    /** Starts {@code clients} clients sending {@code request} to {@code address:port}. */
    public static KeptAliveClients start(int clients, String address, int port, byte[] request, Answers answers) {
        KeptAliveClients all = new KeptAliveClients();
        for (int i = 0; i < clients; i++) {
            all.threads.add(Thread.ofPlatform().start(() -> all.run(address, port, request, answers)));
        }
        return all;
    }

    private void run(String address, int port, byte[] request, Answers answers) {
        Socket socket = null;
        while (running.get()) {
            try {
                if (socket == null) {
                    socket = new Socket(address, port);
                    socket.setSoTimeout(20_000);
                }
            } catch (ConnectException e) {
                refused.incrementAndGet(); // after the listener closed: expected
                sleep(5);
                continue;
            } catch (IOException e) {
                failed.add("connect: " + e);
                continue;
            }
            long sent = System.nanoTime();
            try {
                OutputStream out = socket.getOutputStream();
                out.write(request);
                out.flush();
                Response response = readSized(socket.getInputStream());
                answered.incrementAndGet();
                answers.answered(sent, response.head(), response.bodyLength());
                if (response.head().toLowerCase(Locale.ROOT).contains("connection: close")) {
                    socket.close();
                    socket = null;
                }
            } catch (IOException e) {
                failed.add(TimeUnit.NANOSECONDS.toMillis(sent - mark.get()) + " ms after the mark: " + e);
                closeQuietly(socket);
                socket = null;
            }
        }
        closeQuietly(socket);
    }

    /** An answer read whole: its head and the length of its body. */
    public record Response(String head, int bodyLength) {
    }

    /**
     * Reads one answer (a head and a {@code Content-Length} body) without reading past it; EOF before its end throws.
     */
    public static Response readSized(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        while (matched < 4) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("connection closed before an answer (" + head.size() + " bytes of headers)");
            }
            head.write(b);
            matched = (b == "\r\n\r\n".charAt(matched)) ? matched + 1 : (b == '\r' ? 1 : 0);
        }
        String text = head.toString(StandardCharsets.US_ASCII);
        int length = Integer.parseInt(text.replaceAll("(?is).*content-length: *(\\d+).*", "$1"));
        if (in.readNBytes(length).length != length) {
            throw new IOException("connection closed in the middle of an answer");
        }
        return new Response(text, length);
    }

    /** From now, failures say how long after this moment their request was sent (a SIGTERM's, say). */
    public void mark() {
        mark.set(System.nanoTime());
    }

    public long answered() {
        return answered.get();
    }

    public long refused() {
        return refused.get();
    }

    /** Requests that failed on an open connection, each with when and how. */
    public List<String> failed() {
        return List.copyOf(failed);
    }

    /** Ends the loops once their requests in flight are done, and waits for them. */
    public void stop() throws InterruptedException {
        running.set(false);
        for (Thread thread : threads) {
            thread.join();
        }
    }

    @Override
    public void close() throws InterruptedException {
        stop();
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void closeQuietly(Socket socket) {
        if (socket != null) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing after a failure
            }
        }
    }
}
