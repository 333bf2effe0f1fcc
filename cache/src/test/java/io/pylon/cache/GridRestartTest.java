package io.pylon.cache;

import io.pylon.cache.GridTestPods.CachePod;
import io.pylon.cache.GridTestPods.Slot;
import io.pylon.cache.client.ConnectionState;
import io.pylon.cache.client.GridClient;
import io.pylon.cache.client.GridUnavailableException;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A Worker-side client survives a Cache restart: it fails fast while the Cache is down and works again after. */
class GridRestartTest {

    @Test
    void clientFailsFastWhileTheCacheIsDownAndRecoversWhenItReturns() {
        Slot slot = GridTestPods.slot("127.6.0.21");
        CachePod pod = GridTestPods.start("cache-restart", slot, slot.member(), Map.of());
        try (GridClient client = GridTestPods.client(slot.member())) {
            GridTestPods.await("client connected", Duration.ofSeconds(15), () -> client.state() == ConnectionState.CONNECTED);
            assertThat(client.counters().increment("before", Duration.ofHours(1))).isEqualTo(1);

            pod.pod().stop();
            GridTestPods.await("client disconnected", Duration.ofSeconds(15), () -> client.state() == ConnectionState.DISCONNECTED);
            for (int i = 0; i < 20; i++) {
                long t0 = System.nanoTime();
                assertThatThrownBy(() -> client.counters().increment("during", Duration.ofHours(1)))
                        .isInstanceOf(GridUnavailableException.class);
                assertThatThrownBy(() -> client.responses().get("during")).isInstanceOf(GridUnavailableException.class);
                assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofMillis(100));
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> operations = (Map<String, Object>) client.describe().get("operations");
            assertThat((Long) operations.get("refusedWhileDisconnected")).isGreaterThanOrEqualTo(40L);

            pod = GridTestPods.start("cache-restart", slot, slot.member(), Map.of());
            GridTestPods.await("client reconnected", Duration.ofSeconds(20), () -> client.state() == ConnectionState.CONNECTED);
            // a lone member restarted empty: the counter starts again
            assertThat(client.counters().increment("before", Duration.ofHours(1))).isEqualTo(1);
            assertThat(client.describe().get("connects")).isEqualTo(2L);
        } finally {
            pod.pod().stop();
        }
    }
}
