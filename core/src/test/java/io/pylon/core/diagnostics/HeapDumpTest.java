package io.pylon.core.diagnostics;

import io.pylon.core.server.Pod;
import io.pylon.core.testing.FakeModule;
import io.pylon.core.testing.TestPods;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;

import static io.pylon.core.diagnostics.DiagnosticsClient.call;
import static io.pylon.core.diagnostics.DiagnosticsClient.json;
import static org.assertj.core.api.Assertions.assertThat;

class HeapDumpTest {
    private Pod pod;
    private Path dumps;

    @AfterEach
    void stop() {
        if (pod != null) {
            pod.stop();
        }
    }

    private void start() throws IOException {
        dumps = Files.createTempDirectory("pylon-dumps");
        pod = TestPods.start(new FakeModule("worker").servingDiagnostics(), "worker-0", Map.of("pylon.diagnostics.dump-dir", dumps.toString()));
    }

    private HttpResponse<InputStream> download(String query) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(TestPods.baseUrl(pod) + "/platform/diagnostics/heapdump" + query))
                .header("Authorization", TestPods.ENVIRONMENT_ID).timeout(java.time.Duration.ofSeconds(120)).build();
        return TestPods.client().send(request, HttpResponse.BodyHandlers.ofInputStream());
    }

    private List<Path> leftovers() throws IOException {
        try (Stream<Path> files = Files.list(dumps)) {
            return files.toList();
        }
    }

    @Test
    void streamsAnHprofFileThatParsesToTheEndAndDeletesIt() throws Exception {
        start();
        HttpResponse<InputStream> response = download("");
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("content-type")).hasValue("application/octet-stream");
        assertThat(response.headers().firstValue("content-disposition").orElse(""))
                .matches("attachment; filename=\"worker-0-\\d{8}T\\d{6}Z\\.hprof\"");
        long length = response.headers().firstValueAsLong("content-length").orElse(-1);
        assertThat(length).isPositive();
        CountingStream counted = new CountingStream(response.body());
        Hprof hprof;
        try (counted) {
            hprof = Hprof.read(counted);
        }
        assertThat(counted.count).isEqualTo(length);
        assertThat(hprof.version()).isEqualTo("JAVA PROFILE 1.0.2");
        assertThat(hprof.records()).isPositive();
        assertThat(hprof.tags()).contains(Hprof.HEAP_DUMP_END).containsAnyOf(Hprof.HEAP_DUMP, Hprof.HEAP_DUMP_SEGMENT);
        waitForNoLeftovers();
    }

    @Test
    void compressGzipStreamsAGzippedHprofOfAllObjects() throws Exception {
        start();
        HttpResponse<InputStream> response = download("?compress=gzip&live=false");
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("content-disposition").orElse("")).endsWith(".hprof.gz\"");
        assertThat(response.headers().firstValue("content-length")).isEmpty();
        Hprof hprof;
        try (InputStream in = new GZIPInputStream(response.body(), 1 << 16)) {
            hprof = Hprof.read(in);
        }
        assertThat(hprof.tags()).contains(Hprof.HEAP_DUMP_END);
        waitForNoLeftovers();
    }

    @Test
    void aSecondDumpGets429AndAnAbortedDownloadLeavesNoFile() throws Exception {
        start();
        byte[] ballast = new byte[64 * 1024 * 1024]; // makes the dump far larger than the socket buffers
        ballast[ballast.length - 1] = 1;
        try (Socket socket = new Socket("127.0.0.1", pod.port())) {
            OutputStream out = socket.getOutputStream();
            out.write(("GET /platform/diagnostics/heapdump?live=false HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: "
                    + TestPods.ENVIRONMENT_ID + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            byte[] head = in.readNBytes(12);
            assertThat(new String(head, StandardCharsets.US_ASCII)).isEqualTo("HTTP/1.1 200");
            in.readNBytes(4096);

            HttpResponse<String> second = call(pod, "heapdump");
            assertThat(second.statusCode()).isEqualTo(429);
            assertThat(second.headers().firstValue("retry-after")).hasValue("30");
            assertThat(json(second).path("error").asText()).isEqualTo("too_many_requests");
            assertThat(leftovers()).hasSize(1);
        }
        waitForNoLeftovers();
        assertThat(ballast[ballast.length - 1]).isEqualTo((byte) 1);
        assertThat(call(pod, "heapdump?live=maybe").statusCode()).isEqualTo(400);
    }

    @Test
    void badParametersGet400() throws Exception {
        start();
        assertThat(call(pod, "heapdump?live=maybe").statusCode()).isEqualTo(400);
        HttpResponse<String> zip = call(pod, "heapdump?compress=zip");
        assertThat(zip.statusCode()).isEqualTo(400);
        assertThat(json(zip).path("error_description").asText()).contains("compress");
        HttpRequest head = HttpRequest.newBuilder(URI.create(TestPods.baseUrl(pod) + "/platform/diagnostics/heapdump"))
                .header("Authorization", TestPods.ENVIRONMENT_ID).method("HEAD", HttpRequest.BodyPublishers.noBody()).build();
        HttpResponse<String> headResponse = TestPods.send(head);
        assertThat(headResponse.statusCode()).isEqualTo(405);
        assertThat(headResponse.headers().firstValue("allow")).hasValue("GET");
        assertThat(leftovers()).isEmpty();
    }

    @Test
    void leftoversOfACrashAreRemovedAtStartUpAndOtherFilesKept() throws Exception {
        Path dir = Files.createTempDirectory("pylon-dumps");
        Path leftover = Files.writeString(dir.resolve(HeapDumper.FILE_PREFIX + "crashed.hprof"), "JAVA PROFILE");
        Path segment = Files.writeString(dir.resolve(HeapDumper.FILE_PREFIX + "crashed.hprof.p0"), "x");
        Path threads = Files.writeString(dir.resolve(VirtualThreadDump.FILE_PREFIX + "crashed.json"), "{}");
        Path mine = Files.writeString(dir.resolve("operator-notes.txt"), "keep");
        pod = TestPods.start(new FakeModule("worker").servingDiagnostics(), "worker-0", Map.of("pylon.diagnostics.dump-dir", dir.toString()));
        assertThat(leftover).doesNotExist();
        assertThat(segment).doesNotExist();
        assertThat(threads).doesNotExist();
        assertThat(mine).exists();
    }

    private void waitForNoLeftovers() throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!leftovers().isEmpty()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("dump files left behind: " + leftovers());
            }
            Thread.sleep(50);
        }
    }

    private static final class CountingStream extends java.io.FilterInputStream {
        long count;

        CountingStream(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) {
                count++;
            }
            return b;
        }

        @Override
        public long skip(long n) throws IOException {
            long skipped = super.skip(n);
            count += skipped;
            return skipped;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            int n = super.read(buffer, offset, length);
            if (n > 0) {
                count += n;
            }
            return n;
        }
    }
}
