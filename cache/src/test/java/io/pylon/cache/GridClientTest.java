package io.pylon.cache;

import io.pylon.cache.GridTestPods.CachePod;
import io.pylon.cache.GridTestPods.Slot;
import io.pylon.cache.client.ConnectionState;
import io.pylon.cache.client.CounterWindow;
import io.pylon.cache.client.GridClient;
import io.pylon.cache.client.GridUnavailableException;
import io.pylon.core.config.InvalidSettingException;
import io.pylon.core.config.Settings;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The Worker-side client against one real Cache pod: counters, the response cache, and a Cache restart. */
class GridClientTest {
    static final Slot SLOT = GridTestPods.slot("127.6.0.11");
    static CachePod pod;
    static GridClient client;

    @BeforeAll
    static void start() {
        pod = GridTestPods.start("cache-client-test", SLOT, SLOT.member(), Map.of());
        client = GridTestPods.client(SLOT.member());
        GridTestPods.await("client connected", Duration.ofSeconds(15), () -> client.state() == ConnectionState.CONNECTED);
    }

    @AfterAll
    static void stop() {
        client.close();
        pod.pod().stop();
    }

    @Test
    void countsHitsInAFixedWindowAndStartsAgainInTheNext() throws Exception {
        Duration window = Duration.ofMillis(1500);
        CounterWindow first = client.counters().incrementWindow("window-test", window);
        CounterWindow second = client.counters().incrementWindow("window-test", window);
        if (!second.windowStart().equals(first.windowStart())) {
            // the two calls straddled a window boundary: the second one opened the next window
            assertThat(second.count()).isEqualTo(1);
            first = second;
            second = client.counters().incrementWindow("window-test", window);
        }
        assertThat(second.count()).isEqualTo(first.count() + 1);
        assertThat(Duration.between(second.windowStart(), second.windowEnd())).isEqualTo(window);
        Thread.sleep(Math.max(0, Duration.between(java.time.Instant.now(), second.windowEnd()).toMillis() + 50));
        CounterWindow next = client.counters().incrementWindow("window-test", window);
        assertThat(next.count()).isEqualTo(1);
        assertThat(next.windowStart()).isAfterOrEqualTo(second.windowEnd());
    }

    @Test
    void concurrentIncrementsFromTwoClientsAreNeverLostNorDuplicated() throws Exception {
        try (GridClient other = GridTestPods.client(SLOT.member())) {
            GridTestPods.await("second client connected", Duration.ofSeconds(15), () -> other.state() == ConnectionState.CONNECTED);
            int perThread = 250;
            ExecutorService threads = Executors.newFixedThreadPool(8);
            Set<Long> seen = ConcurrentHashMap.newKeySet();
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                GridClient user = t % 2 == 0 ? client : other;
                futures.add(threads.submit(() -> {
                    for (int i = 0; i < perThread; i++) {
                        seen.add(user.counters().increment("shared", Duration.ofHours(1)));
                    }
                    return null;
                }));
            }
            for (Future<?> future : futures) {
                future.get(60, TimeUnit.SECONDS);
            }
            threads.shutdown();
            assertThat(seen).hasSize(8 * perThread);
            assertThat(client.counters().increment("shared", Duration.ofHours(1))).isEqualTo(8L * perThread + 1);
        }
    }

    @Test
    void cachesResponsesUntilTheirTimeToLiveEnds() throws Exception {
        // the grid keeps an entry's times in whole seconds: a time to live of 1 s can end at once, one of 2 s lasts 1 s
        client.responses().put("short", "hello".getBytes(StandardCharsets.UTF_8), Duration.ofSeconds(2));
        client.responses().put("long", "world".getBytes(StandardCharsets.UTF_8), Duration.ofMinutes(5));
        assertThat(client.responses().get("short")).hasValueSatisfying(v -> assertThat(new String(v, StandardCharsets.UTF_8)).isEqualTo("hello"));
        GridTestPods.await("short entry expired", Duration.ofSeconds(10), () -> client.responses().get("short").isEmpty());
        assertThat(client.responses().get("long")).isPresent();
        client.responses().remove("long");
        assertThat(client.responses().get("long")).isEmpty();
        assertThat(client.responses().get("never-written")).isEmpty();
    }

    @Test
    void rejectsBadArguments() {
        assertThatThrownBy(() -> client.counters().increment("", Duration.ofSeconds(1))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> client.counters().increment("k", Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> client.responses().put("k", new byte[1], Duration.ofMillis(500))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> client.responses().put("k", null, Duration.ofSeconds(1))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> GridClient.start(Settings.of(Map.of()))).isInstanceOf(InvalidSettingException.class)
                .hasMessageContaining("PYLON_CACHE_ADDRESSES");
    }

    @Test
    void describesItsConnection() {
        Map<String, Object> described = client.describe();
        assertThat(described.get("state")).isEqualTo("CONNECTED");
        assertThat((String) described.get("clusterLabel")).startsWith("pylon-test-");
        assertThat(described.get("members")).isEqualTo(List.of(SLOT.member()));
        assertThat(described.toString()).doesNotContain(io.pylon.core.testing.TestPods.ENVIRONMENT_ID)
                .doesNotContain(io.pylon.cache.client.GridClusterName.of("test", io.pylon.core.testing.TestPods.ENVIRONMENT_ID).secret());
        assertThat(described).doesNotContainKey("clusterName").containsKey("clusterLabel");
    }

    @Test
    void aClientWithNoReachableGridFailsFastAndKeepsTrying() {
        Slot nowhere = GridTestPods.slot("127.6.0.12");
        try (GridClient lonely = GridTestPods.client(nowhere.member())) {
            assertThat(lonely.state()).isIn(ConnectionState.CONNECTING, ConnectionState.DISCONNECTED);
            long t0 = System.nanoTime();
            assertThatThrownBy(() -> lonely.counters().increment("k", Duration.ofSeconds(1)))
                    .isInstanceOf(GridUnavailableException.class).hasMessageContaining("not attempted");
            assertThat(lonely.counters().incrementAsync("k", Duration.ofSeconds(1))).isCompletedExceptionally();
            assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofMillis(200));
        }
    }
}
