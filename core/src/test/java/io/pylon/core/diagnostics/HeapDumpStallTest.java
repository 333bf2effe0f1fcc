package io.pylon.core.diagnostics;

import io.pylon.core.testing.TestPods;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** Heap dumps of a real pod process with a small heap: a stalled reader is cut off, back-to-back dumps never wait. */
class HeapDumpStallTest {

    @Test
    void aClientThatStopsReadingIsCutOffAfterTheStallTimeoutAndTheFileAndPermitAreFreed() throws Exception {
        Path dumps = Files.createTempDirectory("pylon-stall");
        try (DiagnosticsPodProcess pod = DiagnosticsPodProcess.start("64m", Map.of(), Map.of(
                "pylon.diagnostics.dump-dir", dumps.toString(),
                "pylon.diagnostics.heap-dump.stall-timeout", "2s"))) {
            URI base = URI.create(pod.baseUrl());
            try (Socket stalled = new Socket()) {
                stalled.setReceiveBufferSize(4096);
                stalled.connect(new InetSocketAddress(base.getHost(), base.getPort()), 5000);
                OutputStream out = stalled.getOutputStream();
                out.write(("GET /platform/diagnostics/heapdump?live=false HTTP/1.1\r\nHost: x\r\nAuthorization: "
                        + TestPods.ENVIRONMENT_ID + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                out.flush();
                InputStream in = stalled.getInputStream();
                assertThat(new String(in.readNBytes(12), StandardCharsets.US_ASCII)).isEqualTo("HTTP/1.1 200");
                in.readNBytes(4096);
                long stalledAt = System.nanoTime();

                assertThat(dump(pod, "").statusCode()).as("the stalled download holds the permit").isEqualTo(429);
                assertThat(files(dumps)).hasSize(1);

                long deadline = stalledAt + Duration.ofSeconds(30).toNanos();
                while (!files(dumps).isEmpty() && System.nanoTime() < deadline) {
                    Thread.sleep(20);
                }
                long freedAfterMillis = (System.nanoTime() - stalledAt) / 1_000_000;
                assertThat(files(dumps)).as("the aborted dump's file").isEmpty();
                assertThat(freedAfterMillis).isBetween(1500L, 20_000L);

                // The handler deletes the file, then releases the permit (the next statement): allow for that gap.
                HttpResponse<InputStream> next = dump(pod, "");
                long gapDeadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
                while (next.statusCode() == 429 && System.nanoTime() < gapDeadline) {
                    next.body().close();
                    Thread.sleep(50);
                    next = dump(pod, "");
                }
                assertThat(next.statusCode()).as("a dump after the stalled one was cut off").isEqualTo(200);
                long length = next.headers().firstValueAsLong("content-length").orElseThrow();
                try (InputStream body = next.body()) {
                    assertThat(body.transferTo(OutputStream.nullOutputStream())).isEqualTo(length);
                }

                stalled.setSoTimeout(10_000);
                assertThat(drainUntilClosed(in)).as("bytes the stalled client could still read").isLessThan(length * 2);
                assertThat(pod.log()).anyMatch(line -> line.contains("Heap dump download aborted after")
                        && line.contains("the client read nothing for 2000 ms"));
            }
        }
    }

    @Test
    void twentyBackToBackDumpsEachOnANewConnectionNeverGet429() throws Exception {
        try (DiagnosticsPodProcess pod = DiagnosticsPodProcess.start("64m", Map.of(), Map.of())) {
            URI base = URI.create(pod.baseUrl());
            List<Integer> statuses = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                statuses.add(fullDumpOnANewConnection(base));
            }
            assertThat(statuses).hasSize(20).containsOnly(200);
        }
    }

    /**
     * Like curl: a new connection, the whole body read by its Content-Length, and the next request sent the moment
     * the last byte arrived (a kept-alive connection would hide the race, its next request waits for the handler).
     */
    private static int fullDumpOnANewConnection(URI base) throws IOException {
        try (Socket socket = new Socket(base.getHost(), base.getPort())) {
            socket.setSoTimeout(60_000);
            socket.getOutputStream().write(("GET /platform/diagnostics/heapdump HTTP/1.1\r\nHost: x\r\nAuthorization: "
                    + TestPods.ENVIRONMENT_ID + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            InputStream in = new java.io.BufferedInputStream(socket.getInputStream());
            int status = -1;
            long length = 0;
            StringBuilder line = new StringBuilder();
            for (int b = in.read(); b >= 0; b = in.read()) {
                if (b != '\n') {
                    line.append((char) b);
                    continue;
                }
                String header = line.toString().strip();
                line.setLength(0);
                if (header.isEmpty()) {
                    break;
                }
                if (status < 0) {
                    status = Integer.parseInt(header.split(" ")[1]);
                } else if (header.toLowerCase(java.util.Locale.ROOT).startsWith("content-length:")) {
                    length = Long.parseLong(header.substring(15).strip());
                }
            }
            in.skipNBytes(length); // EOFException if the body ended early
            return status;
        }
    }

    private static HttpResponse<InputStream> dump(DiagnosticsPodProcess pod, String query) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(pod.baseUrl() + "/platform/diagnostics/heapdump" + query))
                .header("Authorization", TestPods.ENVIRONMENT_ID).timeout(Duration.ofSeconds(60)).build();
        return TestPods.client().send(request, HttpResponse.BodyHandlers.ofInputStream());
    }

    private static List<Path> files(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.toList();
        }
    }

    /** Reads what the server sent before it closed the connection: the end of the stream or a reset. */
    private static long drainUntilClosed(InputStream in) {
        long total = 0;
        byte[] buffer = new byte[64 * 1024];
        try {
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                total += n;
            }
        } catch (IOException closedByPeer) {
            // a reset is as good as the end: the connection is gone
        }
        return total;
    }
}
