package io.pylon.worker.usage;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

/** The in-memory counts: per (application, proxy, minute), bounded, and nothing lost between drains. */
class UsageRecorderTest {
    private static final long MINUTE = 29_000_000L * 60_000L;

    @Test
    void countsRequestsErrorsAndLatencyPerApplicationProxyAndMinute() {
        UsageRecorder recorder = new UsageRecorder(100);
        recorder.record("app-1", "orders", 200, 2_000_000, MINUTE + 1);
        recorder.record("app-1", "orders", 404, 1_000_000, MINUTE + 59_999);
        recorder.record("app-1", "orders", 503, 6_000_000, MINUTE + 30_000);
        recorder.record("app-1", "orders", 200, 1_000_000, MINUTE + 60_000);
        recorder.record("app-2", "orders", 200, 1_000_000, MINUTE);

        List<UsageEntry> drained = recorder.drain();
        assertThat(drained).containsExactlyInAnyOrder(
                new UsageEntry("app-1", "orders", MINUTE / 60_000, 3, 1, 1, 9000, 6000),
                new UsageEntry("app-1", "orders", MINUTE / 60_000 + 1, 1, 0, 0, 1000, 1000),
                new UsageEntry("app-2", "orders", MINUTE / 60_000, 1, 0, 0, 1000, 1000));
        assertThat(drained.getFirst().toJson()).containsKeys("application", "proxy", "minute", "requests");
        assertThat(recorder.drain()).isEmpty();
        assertThat(recorder.held()).as("held until released").isEqualTo(3);
        recorder.released(3);
        assertThat(recorder.held()).isZero();
    }

    @Test
    void beyondTheBoundNewCellsAreDroppedAndCounted() {
        UsageRecorder recorder = new UsageRecorder(2);
        recorder.record("a", "p", 200, 1000, MINUTE);
        recorder.record("b", "p", 200, 1000, MINUTE);
        recorder.record("c", "p", 200, 1000, MINUTE);
        recorder.record("a", "p", 200, 1000, MINUTE); // an existing cell still counts
        assertThat(recorder.dropped()).isEqualTo(1);
        assertThat(recorder.drain()).extracting(UsageEntry::requests).containsExactlyInAnyOrder(2L, 1L);
        recorder.record("c", "p", 200, 1000, MINUTE);
        assertThat(recorder.dropped()).as("drained but not acknowledged: still held").isEqualTo(2);
        recorder.released(2);
        recorder.record("c", "p", 200, 1000, MINUTE);
        assertThat(recorder.drain()).extracting(UsageEntry::requests).containsExactly(1L);
    }

    @Test
    void drainsWhileRequestsCountLoseNothing() throws InterruptedException {
        UsageRecorder recorder = new UsageRecorder(1000);
        int threads = 4;
        int each = 50_000;
        AtomicBoolean done = new AtomicBoolean();
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            workers.add(Thread.ofPlatform().start(() -> {
                for (int i = 0; i < each; i++) {
                    recorder.record("app", "orders", i % 10 == 0 ? 500 : 200, 1000, MINUTE);
                }
            }));
        }
        long requests = 0;
        long errors = 0;
        while (!done.get()) {
            done.set(workers.stream().noneMatch(Thread::isAlive));
            for (UsageEntry entry : recorder.drain()) {
                requests += entry.requests();
                errors += entry.serverErrors();
                recorder.released(1);
            }
        }
        for (UsageEntry entry : recorder.drain()) {
            requests += entry.requests();
            errors += entry.serverErrors();
        }
        assertThat(requests).isEqualTo((long) threads * each);
        assertThat(errors).isEqualTo((long) threads * each / 10);
        assertThat(recorder.dropped()).isZero();
    }
}
