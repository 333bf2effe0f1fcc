package io.pylon.core.broadcast;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

class ReadWatchdogTest {

    @Test
    void aReadThatOutlivesItsBudgetIsInterrupted() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
             Socket client = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort());
             Socket silent = server.accept()) {
            InputStream in = client.getInputStream();
            AtomicReference<IOException> failure = new AtomicReference<>();
            AtomicBoolean expired = new AtomicBoolean();
            Thread reader = Thread.ofVirtual().unstarted(() -> {
                try (ReadWatchdog.Guard guard = ReadWatchdog.guard(TimeUnit.MILLISECONDS.toNanos(200))) {
                    try {
                        in.read();
                    } catch (IOException e) {
                        failure.set(e);
                    }
                    expired.set(guard.expired());
                }
            });
            long t0 = System.nanoTime();
            reader.start();

            assertThat(reader.join(Duration.ofSeconds(5))).isTrue();
            assertThat((System.nanoTime() - t0) / 1_000_000).isBetween(150L, 3000L);
            assertThat(failure.get()).isNotNull();
            assertThat(expired).isTrue();
            assertThat(client.isClosed()).isTrue();
        }
    }

    @Test
    void noInterruptLandsOnceTheGuardIsClosed() throws Exception {
        AtomicBoolean expired = new AtomicBoolean(true);
        AtomicBoolean interrupted = new AtomicBoolean();
        Thread thread = Thread.ofVirtual().start(() -> {
            try (ReadWatchdog.Guard guard = ReadWatchdog.guard(TimeUnit.MILLISECONDS.toNanos(50))) {
                expired.set(guard.expired());
            }
            try {
                Thread.sleep(300);
            } catch (InterruptedException e) {
                interrupted.set(true);
            }
        });

        thread.join();
        assertThat(expired).isFalse();
        assertThat(interrupted).isFalse();
    }
}
