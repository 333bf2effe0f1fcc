package io.pylon.worker.proxy;

import io.pylon.core.testing.TestPods;
import io.pylon.worker.testing.Gateway;
import io.pylon.worker.testing.TestUpstream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.CRC32;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * 100 MiB bodies in both directions through the Worker: the live heap is measured (after a full GC) half-way through
 * each transfer; a proxy that held the body whole would hold at least 50 MiB at that point.
 */
class StreamingTest {
    static final long SIZE = 100L * 1024 * 1024;
    static final long HALF = SIZE / 2;
    static final long HEAP_SLACK = 32L * 1024 * 1024;
    static final AtomicLong SINK_HEAP_AT_HALF = new AtomicLong(-1);
    static TestUpstream source;
    static TestUpstream sink;
    static Gateway gateway;

    @BeforeAll
    static void start() {
        source = TestUpstream.start(exchange -> {
            exchange.sendResponseHeaders(200, SIZE);
            try (OutputStream out = exchange.getResponseBody()) {
                Pattern.write(out, SIZE);
            }
        });
        sink = TestUpstream.start(exchange -> {
            CRC32 crc = new CRC32();
            long total = 0;
            byte[] buffer = new byte[64 * 1024];
            try (InputStream in = exchange.getRequestBody()) {
                int n;
                while ((n = in.read(buffer)) > 0) {
                    if (total < HALF && total + n >= HALF) {
                        SINK_HEAP_AT_HALF.set(liveHeap());
                    }
                    total += n;
                    crc.update(buffer, 0, n);
                }
            }
            TestUpstream.send(exchange, 200, (total + " " + crc.getValue()).getBytes(StandardCharsets.UTF_8));
        });
        gateway = Gateway.start("streaming-test", """
                routes:
                  - {name: source, pathPrefix: /download, upstreams: [%s]}
                  - {name: sink, pathPrefix: /upload, upstreams: [%s]}
                """.formatted(source.url(), sink.url()), Map.of());
    }

    @AfterAll
    static void stop() {
        gateway.close();
        source.close();
        sink.close();
    }

    @Test
    void hundredMebibyteDownloadIsStreamed() throws Exception {
        long baseline = liveHeap();
        HttpResponse<InputStream> response = TestPods.client().send(
                HttpRequest.newBuilder(URI.create(gateway.url("/download"))).build(), HttpResponse.BodyHandlers.ofInputStream());
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValueAsLong("Content-Length")).hasValue(SIZE);
        CRC32 crc = new CRC32();
        long total = 0;
        long heapAtHalf = -1;
        byte[] buffer = new byte[64 * 1024];
        try (InputStream in = response.body()) {
            int n;
            while ((n = in.read(buffer)) > 0) {
                if (total < HALF && total + n >= HALF) {
                    heapAtHalf = liveHeap();
                }
                total += n;
                crc.update(buffer, 0, n);
            }
        }
        assertThat(total).isEqualTo(SIZE);
        assertThat(crc.getValue()).isEqualTo(Pattern.crc(SIZE));
        assertThat(heapAtHalf - baseline).as("live heap growth half-way through").isLessThan(HEAP_SLACK);
    }

    @Test
    void hundredMebibyteChunkedUploadIsStreamed() throws Exception {
        long baseline = liveHeap();
        HttpRequest request = HttpRequest.newBuilder(URI.create(gateway.url("/upload")))
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> Pattern.stream(SIZE))).build();
        HttpResponse<String> response = TestPods.client().send(request, HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo(SIZE + " " + Pattern.crc(SIZE));
        assertThat(SINK_HEAP_AT_HALF.get() - baseline).as("live heap growth half-way through").isLessThan(HEAP_SLACK);
    }

    private static long liveHeap() {
        System.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    /** A deterministic byte pattern, generated on the fly. */
    static final class Pattern {
        static void write(OutputStream out, long size) throws IOException {
            byte[] buffer = new byte[64 * 1024];
            long left = size;
            long position = 0;
            while (left > 0) {
                int n = (int) Math.min(buffer.length, left);
                fill(buffer, n, position);
                out.write(buffer, 0, n);
                position += n;
                left -= n;
            }
        }

        static void fill(byte[] buffer, int n, long position) {
            for (int i = 0; i < n; i++) {
                buffer[i] = (byte) ((position + i) * 31 >>> 3);
            }
        }

        static long crc(long size) {
            CRC32 crc = new CRC32();
            byte[] buffer = new byte[64 * 1024];
            long position = 0;
            while (position < size) {
                int n = (int) Math.min(buffer.length, size - position);
                fill(buffer, n, position);
                crc.update(buffer, 0, n);
                position += n;
            }
            return crc.getValue();
        }

        static InputStream stream(long size) {
            return new InputStream() {
                private long position;

                @Override
                public int read() {
                    byte[] one = new byte[1];
                    return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
                }

                @Override
                public int read(byte[] b, int off, int len) {
                    if (position >= size) {
                        return -1;
                    }
                    int n = (int) Math.min(len, size - position);
                    for (int i = 0; i < n; i++) {
                        b[off + i] = (byte) ((position + i) * 31 >>> 3);
                    }
                    position += n;
                    return n;
                }
            };
        }
    }
}
