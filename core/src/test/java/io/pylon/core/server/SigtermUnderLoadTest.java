package io.pylon.core.server;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

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
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * SIGTERM on a pod process while 32 kept-alive clients send requests in a loop, each reconnecting when an answer says
 * Connection: close (what wrk -c32 does): no request is cut (0 read errors and timeouts; only connects refused after
 * the listener closed), answers during the delay say Connection: close, the last log line says how many requests
 * the pod finished.
 */
@EnabledOnOs(OS.LINUX)
class SigtermUnderLoadTest {
    private static final int CLIENTS = 32;
    private static final byte[] REQUEST = "GET /platform/management/health/live HTTP/1.1\r\nHost: pod\r\n\r\n"
            .getBytes(StandardCharsets.US_ASCII);

    @Test
    void withoutDelayNoRequestIsCut() throws Exception {
        Outcome outcome = sigtermUnderLoad("0s");
        outcome.assertNothingCut();
    }

    @Test
    void duringTheDelayAnswersSayCloseAndNoRequestIsCut() throws Exception {
        Outcome outcome = sigtermUnderLoad("2s");
        outcome.assertNothingCut();
        assertThat(outcome.closeDuringDelay).as("answers with Connection: close during the delay").isPositive();
        assertThat(outcome.keepAliveDuringDelay).as("answers during the delay without Connection: close").isEmpty();
    }

    /** What 32 clients saw when SIGTERM landed while they sent requests in a loop, as wrk -c32 does. */
    private record Outcome(long before, long answered, long refused, List<String> cut, long closeDuringDelay,
                           List<Long> keepAliveDuringDelay, String log) {
        void assertNothingCut() {
            assertThat(before).isPositive();
            // wrk's read errors and timeouts: a request on an open connection answered by a close or a reset
            assertThat(cut).as("requests cut; pod log:\n" + log).isEmpty();
            assertThat(refused).as("connects refused after the stop").isPositive();
            String[] lines = log.strip().split("\n");
            String last = lines[lines.length - 1];
            assertThat(last).contains("Pod process-pod stopped after finishing");
            long finished = Long.parseLong(last.replaceAll(".*finishing (\\d+) requests.*", "$1"));
            assertThat(finished).isEqualTo(answered);
        }
    }

    private static Outcome sigtermUnderLoad(String delay) throws Exception {
        try (PodProcessRunner pod = PodProcessRunner.start(List.of(), Map.of("pylon.shutdown.delay", delay))) {
            long delayMs = java.time.Duration.parse("PT" + delay.toUpperCase(Locale.ROOT)).toMillis();
            AtomicBoolean running = new AtomicBoolean(true);
            AtomicLong answered = new AtomicLong();
            AtomicLong refused = new AtomicLong();
            AtomicLong sigtermAt = new AtomicLong(Long.MAX_VALUE);
            ConcurrentLinkedQueue<String> cut = new ConcurrentLinkedQueue<>();
            ConcurrentLinkedQueue<Long> keepAliveDuringDelay = new ConcurrentLinkedQueue<>();
            AtomicLong closeDuringDelay = new AtomicLong();
            List<Thread> clients = new ArrayList<>();
            for (int i = 0; i < CLIENTS; i++) {
                clients.add(Thread.ofPlatform().start(() -> {
                    Socket socket = null;
                    while (running.get()) {
                        try {
                            if (socket == null) {
                                socket = new Socket(PodProcessRunner.ADDRESS, pod.port);
                                socket.setSoTimeout(10_000);
                            }
                        } catch (ConnectException e) {
                            refused.incrementAndGet(); // after the listener closed: expected
                            sleep(5);
                            continue;
                        } catch (IOException e) {
                            cut.add("connect: " + e);
                            continue;
                        }
                        long sent = System.nanoTime();
                        try {
                            OutputStream out = socket.getOutputStream();
                            out.write(REQUEST);
                            out.flush();
                            String head = readResponse(socket.getInputStream());
                            answered.incrementAndGet();
                            boolean close = head.toLowerCase(Locale.ROOT).contains("connection: close");
                            long sinceTerm = TimeUnit.NANOSECONDS.toMillis(sent - sigtermAt.get());
                            if (sinceTerm > 300 && sinceTerm < delayMs - 300) { // well inside the delay
                                if (close) {
                                    closeDuringDelay.incrementAndGet();
                                } else {
                                    keepAliveDuringDelay.add(sinceTerm);
                                }
                            }
                            if (close) {
                                socket.close();
                                socket = null;
                            }
                        } catch (IOException e) {
                            cut.add(TimeUnit.NANOSECONDS.toMillis(sent - sigtermAt.get()) + " ms after SIGTERM: " + e);
                            closeQuietly(socket);
                            socket = null;
                        }
                    }
                    closeQuietly(socket);
                }));
            }
            long waitUntil = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (answered.get() < 10L * CLIENTS && System.nanoTime() < waitUntil) {
                Thread.sleep(100); // a loaded machine (other builds) may take long to warm the pod up
            }
            long before = answered.get();
            sigtermAt.set(System.nanoTime());
            pod.terminate();
            assertThat(pod.process.waitFor(30, TimeUnit.SECONDS)).isTrue();
            running.set(false);
            for (Thread client : clients) {
                client.join();
            }
            return new Outcome(before, answered.get(), refused.get(), List.copyOf(cut), closeDuringDelay.get(),
                    List.copyOf(keepAliveDuringDelay), pod.log());
        }
    }

    /** Reads one response (headers and a Content-Length body); returns the head. EOF before its end is an error. */
    private static String readResponse(InputStream raw) throws IOException {
        InputStream in = raw; // unbuffered on purpose: never reads past the response
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
        return text;
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
