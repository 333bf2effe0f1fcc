package io.pylon.core.http;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The per-read bound of a request body, against a stream that behaves as Helidon 4.5.0's HTTP/2 body does: a read
 * waits in a queue for the next frame, and an interrupted wait ends the body as if it were complete.
 */
class BodyReadWatchTest {
    private final BodyReadWatch watch = new BodyReadWatch(Duration.ofMillis(200));

    /** Frames to come: a byte array each; an empty one ends the body. */
    private static final class FrameStream extends InputStream {
        final BlockingQueue<byte[]> frames = new ArrayBlockingQueue<>(8);
        private byte[] current = new byte[0];
        private int position;
        private boolean ended;

        @Override
        public int read() {
            byte[] one = new byte[1];
            int n = read(one, 0, 1);
            return n < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            if (ended) {
                return -1;
            }
            if (position == current.length) {
                try {
                    current = frames.take();
                } catch (InterruptedException e) {
                    ended = true;
                    return -1; // what Helidon does: the interrupted stream reads as ended
                }
                position = 0;
                if (current.length == 0) {
                    ended = true;
                    return -1;
                }
            }
            int n = Math.min(len, current.length - position);
            System.arraycopy(current, position, b, off, n);
            position += n;
            return n;
        }
    }

    @Test
    void aReadWaitingLongerThanTheTimeoutFailsAndLeavesNoInterrupt() throws Exception {
        FrameStream frames = new FrameStream();
        InputStream body = watch.guard(frames);
        AtomicBoolean interruptedAfter = new AtomicBoolean(true);
        CompletableFuture<Throwable> failure = new CompletableFuture<>();
        Thread reader = Thread.ofVirtual().start(() -> {
            try {
                body.read(new byte[16], 0, 16);
                failure.complete(null);
            } catch (IOException e) {
                failure.complete(e);
            }
            interruptedAfter.set(Thread.currentThread().isInterrupted());
        });
        awaitWaiting(1);
        watch.sweep(System.nanoTime()); // not yet past the timeout
        Thread.sleep(300);
        watch.sweep(System.nanoTime());
        assertThat(failure.get(10, TimeUnit.SECONDS)).isInstanceOf(RequestBodyTimeoutException.class);
        reader.join(10_000);
        assertThat(interruptedAfter).as("the reader's interrupt flag after the read").isFalse();
        assertThat(watch.waiting()).isZero();
        // once timed out, the body stays failed: it never reads as complete
        assertThatThrownBy(() -> body.read(new byte[1], 0, 1)).isInstanceOf(RequestBodyTimeoutException.class);
    }

    @Test
    void readsThatGetTheirBytesInTimeAreNotTouched() throws Exception {
        FrameStream frames = new FrameStream();
        InputStream body = watch.guard(frames);
        frames.frames.put(new byte[]{1, 2, 3});
        frames.frames.put(new byte[0]);
        byte[] buffer = new byte[16];
        assertThat(body.read(buffer, 0, 16)).isEqualTo(3);
        // a sweep long after the read returned interrupts nobody
        watch.sweep(System.nanoTime() + TimeUnit.SECONDS.toNanos(10));
        assertThat(Thread.currentThread().isInterrupted()).isFalse();
        assertThat(body.read(buffer, 0, 16)).isEqualTo(-1);
    }

    @Test
    void aSteadyBodyIsNotCutHoweverLongItTakesInAll() throws Exception {
        FrameStream frames = new FrameStream();
        InputStream body = watch.guard(frames);
        Thread sender = Thread.ofVirtual().start(() -> {
            try {
                for (int i = 0; i < 8; i++) {
                    Thread.sleep(100); // each wait under the timeout, all of them well over it
                    frames.frames.put(new byte[]{(byte) i});
                }
                frames.frames.put(new byte[0]);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        Thread sweeper = Thread.ofVirtual().start(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                watch.sweep(System.nanoTime());
                try {
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        try {
            assertThat(body.readAllBytes()).containsExactly(0, 1, 2, 3, 4, 5, 6, 7);
        } finally {
            sweeper.interrupt();
            sender.join(10_000);
        }
    }

    private void awaitWaiting(int n) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (watch.waiting() < n && System.nanoTime() < end) {
            Thread.sleep(5);
        }
        assertThat(watch.waiting()).isEqualTo(n);
    }
}
