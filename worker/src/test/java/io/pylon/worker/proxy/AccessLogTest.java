package io.pylon.worker.proxy;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The access log never makes a request thread wait: an output that stalls costs dropped lines, counted. */
class AccessLogTest {
    @Test
    void aStalledOutputDropsAndCountsLinesAndNeverBlocksTheCaller() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        OutputStream stalled = new OutputStream() {
            @Override
            public void write(int b) {
                await(release);
            }

            @Override
            public void write(byte[] b, int off, int len) {
                await(release);
            }
        };
        try (AccessLog log = new AccessLog(stalled)) {
            long start = System.nanoTime();
            int offered = AccessLog.CAPACITY + 5_000;
            for (int i = 0; i < offered; i++) {
                log.offer("{\"n\":" + i + "}");
            }
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).as("ms to offer").isLessThan(2_000);
            // the writer holds at most one batch of 4,096 while it waits on the output
            assertThat(log.dropped()).isBetween(5_000L - 4_096, 5_000L);
            release.countDown();
        }
    }

    /** Long lines (a long path, escaped) fill the character bound long before the line bound. */
    @Test
    void aStalledOutputHoldsABoundedNumberOfCharacters() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        ByteArrayOutputStream written = new ByteArrayOutputStream();
        OutputStream stalled = new OutputStream() {
            @Override
            public void write(int b) {
                await(release);
                written.write(b);
            }

            @Override
            public void write(byte[] b, int off, int len) {
                await(release);
                written.write(b, off, len);
            }
        };
        String line = "{\"path\":\"" + "\\u0001".repeat(8 * 1024) + "\"}"; // an 8 KiB path of control characters
        int offered = 2_000;
        try (AccessLog log = new AccessLog(stalled)) {
            for (int i = 0; i < offered; i++) {
                log.offer(line);
            }
            long kept = offered - log.dropped();
            assertThat(kept * line.length()).as("characters held").isLessThanOrEqualTo(AccessLog.MAX_PENDING_CHARS);
            assertThat(kept).as("lines held").isGreaterThanOrEqualTo(AccessLog.MAX_PENDING_CHARS / line.length() - 1);
            release.countDown();
            // once the output moves again, the bound is free again
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (written.size() < kept * (line.length() + 1) && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            long droppedBefore = log.dropped();
            log.offer(line);
            Thread.sleep(200);
            assertThat(log.dropped()).isEqualTo(droppedBefore);
        }
    }

    @Test
    void queuedLinesAreWrittenWholeOneALine() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (AccessLog log = new AccessLog(out)) {
            for (int i = 0; i < 1_000; i++) {
                log.offer("{\"n\":" + i + "}");
            }
        }
        String[] lines = out.toString(StandardCharsets.UTF_8).split("\n");
        assertThat(lines).hasSize(1_000);
        assertThat(lines[999]).isEqualTo("{\"n\":999}");
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
