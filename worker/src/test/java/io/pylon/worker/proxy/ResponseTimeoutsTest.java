package io.pylon.worker.proxy;

import org.apache.hc.client5.http.io.ConnectionEndpoint;
import org.apache.hc.core5.http.ClassicHttpRequest;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.impl.io.HttpRequestExecutor;
import org.apache.hc.core5.http.protocol.HttpContext;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.util.Timeout;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.time.Duration;
import java.util.concurrent.ScheduledThreadPoolExecutor;

import static org.assertj.core.api.Assertions.assertThat;

/** The sweep: what it expires, what it leaves alone, and that it stops when nothing is watched. */
class ResponseTimeoutsTest {
    private static final ExchangeLabel LABEL = new ExchangeLabel("test", "GET", "/", null);
    private final ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1);
    private final ResponseTimeouts timeouts = new ResponseTimeouts(timer);

    @AfterEach
    void stop() {
        timer.shutdownNow();
    }

    @Test
    void armedTimeoutPastItsDueTimeClosesTheConnection() {
        FakeEndpoint endpoint = new FakeEndpoint();
        ResponseTimeout timeout = timeouts.create(Duration.ofSeconds(60), LABEL, "");
        long before = System.nanoTime();
        timeout.watch(endpoint);
        long after = System.nanoTime();

        // due between before + 60 s and after + 60 s, whatever this thread's pace (long enough that the real sweep,
        // running every 20 ms on the timer, never expires it on a loaded machine: only the sweeps called here do)
        timeouts.sweep(before + Duration.ofSeconds(59).toNanos());
        assertThat(endpoint.closed).isFalse();
        timeouts.sweep(after + Duration.ofSeconds(60).toNanos());

        assertThat(endpoint.closed).isTrue();
        assertThat(timeout.expired()).isTrue();
        assertThat(timeout.finish()).as("an expired exchange's connection must not go back to the pool").isFalse();
        assertThat(timeouts.watched()).isZero();
    }

    /** The diagnostics list the exchanges that began first, at most {@link ResponseTimeouts#OLDEST}, and count all. */
    @Test
    void theOldestWatchedExchangesAreDescribedFirstAndBounded() throws Exception {
        java.util.List<ResponseTimeout> all = new java.util.ArrayList<>();
        for (int i = 0; i < ResponseTimeouts.OLDEST + 5; i++) {
            ResponseTimeout timeout = timeouts.create(Duration.ofSeconds(60),
                    new ExchangeLabel("r" + i, "GET", "/p" + i, "id-" + i), "http://up:" + i);
            timeout.watch(new FakeEndpoint());
            all.add(timeout);
            Thread.sleep(1); // distinct start times
        }
        all.get(0).disarm();

        java.util.Map<String, Object> described = timeouts.describe();

        assertThat(described.get("count")).isEqualTo(ResponseTimeouts.OLDEST + 5);
        @SuppressWarnings("unchecked")
        var oldest = (java.util.List<java.util.Map<String, Object>>) described.get("oldest");
        assertThat(oldest).hasSize(ResponseTimeouts.OLDEST);
        assertThat(oldest).extracting(e -> e.get("requestId")).startsWith("id-0", "id-1", "id-2")
                .doesNotContain("id-" + (ResponseTimeouts.OLDEST + 4));
        assertThat(oldest.getFirst()).containsEntry("route", "r0").containsEntry("path", "/p0")
                .containsEntry("upstream", "http://up:0").containsEntry("waitingOnUpstream", false);
        assertThat(oldest.get(1)).containsEntry("waitingOnUpstream", true);
        for (ResponseTimeout timeout : all) {
            timeout.finish();
        }
        assertThat(timeouts.describe().get("count")).isEqualTo(0);
    }

    @Test
    void disarmedTimeoutNeverExpires() {
        FakeEndpoint endpoint = new FakeEndpoint();
        ResponseTimeout timeout = timeouts.create(Duration.ofSeconds(60), LABEL, "");
        timeout.watch(endpoint);
        timeout.disarm();

        timeouts.sweep(System.nanoTime() + Duration.ofHours(1).toNanos());

        assertThat(endpoint.closed).isFalse();
        assertThat(timeout.finish()).isTrue();
        assertThat(timeouts.watched()).isZero();
    }

    @Test
    void readsArmTheTimeoutOnlyWhileTheyRun() throws Exception {
        FakeEndpoint endpoint = new FakeEndpoint();
        ResponseTimeout timeout = timeouts.create(Duration.ofSeconds(60), LABEL, "");
        timeout.watch(endpoint);
        InputStream body = timeout.reads(new ByteArrayInputStream(new byte[10]));

        assertThat(body.readAllBytes()).hasSize(10);
        timeouts.sweep(System.nanoTime() + Duration.ofHours(1).toNanos());

        assertThat(endpoint.closed).as("time between reads is the client's, not the upstream's").isFalse();
        timeout.finish();
    }

    @Test
    void sweepingStopsWhenNothingIsWatchedAndResumesWithTheNextExchange() throws Exception {
        ResponseTimeout first = timeouts.create(Duration.ofSeconds(30), LABEL, "");
        first.watch(new FakeEndpoint());
        assertThat(timer.getQueue()).hasSize(1);
        first.finish();
        awaitEmptyQueue();

        FakeEndpoint endpoint = new FakeEndpoint();
        timeouts.create(Duration.ofMillis(30), LABEL, "").watch(endpoint);
        long deadline = System.currentTimeMillis() + 5_000;
        while (!endpoint.closed && System.currentTimeMillis() < deadline) {
            Thread.sleep(5);
        }
        assertThat(endpoint.closed).as("the scheduled sweep expires the second exchange").isTrue();
        awaitEmptyQueue();
    }

    private void awaitEmptyQueue() throws InterruptedException {
        long deadline = System.currentTimeMillis() + 5_000;
        while (!timer.getQueue().isEmpty() && System.currentTimeMillis() < deadline) {
            Thread.sleep(5);
        }
        assertThat(timer.getQueue()).as("no sweep scheduled while nothing is watched").isEmpty();
    }

    @Test
    void aClientThatLeavesClosesTheWatchedConnection() {
        FakeEndpoint endpoint = new FakeEndpoint();
        ResponseTimeout timeout = timeouts.create(Duration.ofSeconds(60), LABEL, "");
        timeout.watch(endpoint);
        timeout.abandon();

        assertThat(endpoint.closed).isTrue();
        assertThat(timeout.abandoned()).isTrue();
        assertThat(timeout.expired()).isFalse();
        assertThat(timeout.finish()).as("an abandoned exchange's connection must not go back to the pool").isFalse();
        assertThat(timeouts.watched()).isZero();
    }

    @Test
    void aClientThatLeftBeforeTheConnectionWasMadeClosesItOnceWatched() {
        FakeEndpoint endpoint = new FakeEndpoint();
        ResponseTimeout timeout = timeouts.create(Duration.ofSeconds(60), LABEL, "");
        timeout.abandon(); // while the exchange leases or connects
        timeout.watch(endpoint);

        assertThat(endpoint.closed).isTrue();
        assertThat(timeout.finish()).isFalse();
        assertThat(timeouts.watched()).isZero();
    }

    @Test
    void aClientThatLeavesAfterTheExchangeFinishedTouchesNothing() {
        FakeEndpoint endpoint = new FakeEndpoint();
        ResponseTimeout timeout = timeouts.create(Duration.ofSeconds(60), LABEL, "");
        timeout.watch(endpoint);
        assertThat(timeout.finish()).isTrue();
        timeout.abandon(); // the connection may be back in the pool, serving another request

        assertThat(endpoint.closed).isFalse();
        assertThat(timeout.abandoned()).isFalse();
    }

    private static final class FakeEndpoint extends ConnectionEndpoint {
        volatile boolean closed;

        @Override
        public ClassicHttpResponse execute(String id, ClassicHttpRequest request, HttpRequestExecutor executor,
                                           HttpContext context) {
            throw new UnsupportedOperationException();
        }

        @Override
        public boolean isConnected() {
            return !closed;
        }

        @Override
        public void setSocketTimeout(Timeout timeout) {
        }

        @Override
        public void close(CloseMode mode) {
            closed = true;
        }

        @Override
        public void close() {
            closed = true;
        }
    }
}
