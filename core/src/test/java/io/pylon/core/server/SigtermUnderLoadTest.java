package io.pylon.core.server;

import io.pylon.core.testing.KeptAliveClients;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
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
            AtomicLong sigtermAt = new AtomicLong(Long.MAX_VALUE);
            ConcurrentLinkedQueue<Long> keepAliveDuringDelay = new ConcurrentLinkedQueue<>();
            AtomicLong closeDuringDelay = new AtomicLong();
            KeptAliveClients clients = KeptAliveClients.start(CLIENTS, PodProcessRunner.ADDRESS, pod.port, REQUEST,
                    (sent, head, bodyLength) -> {
                        long sinceTerm = TimeUnit.NANOSECONDS.toMillis(sent - sigtermAt.get());
                        if (sinceTerm > 300 && sinceTerm < delayMs - 300) { // well inside the delay
                            if (head.toLowerCase(Locale.ROOT).contains("connection: close")) {
                                closeDuringDelay.incrementAndGet();
                            } else {
                                keepAliveDuringDelay.add(sinceTerm);
                            }
                        }
                    });
            long waitUntil = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (clients.answered() < 10L * CLIENTS && System.nanoTime() < waitUntil) {
                Thread.sleep(100); // a loaded machine (other builds) may take long to warm the pod up
            }
            long before = clients.answered();
            sigtermAt.set(System.nanoTime());
            clients.mark();
            pod.terminate();
            assertThat(pod.process.waitFor(30, TimeUnit.SECONDS)).isTrue();
            clients.stop();
            return new Outcome(before, clients.answered(), clients.refused(), clients.failed(), closeDuringDelay.get(),
                    List.copyOf(keepAliveDuringDelay), pod.log());
        }
    }
}
