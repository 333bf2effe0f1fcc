package io.pylon.cache;

import io.pylon.cache.GridTestPods.CachePod;
import io.pylon.cache.GridTestPods.Slot;
import io.pylon.cache.client.ConnectionState;
import io.pylon.cache.client.GridClient;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Worker's client that starts before the Cache pod (as on any busy machine, and in Kubernetes): one line says the
 * grid does not answer yet, none of Hazelcast's failed-attempt warnings and stack traces are logged, and a line says
 * when it connected.
 */
class GridClientStartupLogTest {
    @Test
    void aClientStartedBeforeTheGridSaysSoInOneLineWithoutStackTraces() {
        List<LogRecord> records = new CopyOnWriteArrayList<>();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord record) {
                records.add(record);
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Logger root = Logger.getLogger("");
        root.addHandler(capture);
        Slot slot = GridTestPods.slot("127.0.44.31");
        CachePod pod = null;
        try (GridClient client = GridTestPods.client(slot.member())) {
            GridTestPods.await("the client's notice", Duration.ofSeconds(60), () -> notices(records, "does not answer yet") == 1);
            pod = GridTestPods.start("cache-startup-log", slot, slot.member(), Map.of());
            GridTestPods.await("client connected", Duration.ofSeconds(60), () -> client.state() == ConnectionState.CONNECTED);
            GridTestPods.await("the connected line", Duration.ofSeconds(10), () -> notices(records, "Connected to the data grid after") == 1);

            assertThat(notices(records, "does not answer yet")).isEqualTo(1);
            assertThat(records).filteredOn(r -> r.getLoggerName().startsWith("com.hazelcast.client"))
                    .filteredOn(r -> r.getLevel().intValue() >= Level.WARNING.intValue()).isEmpty();
            assertThat(records).filteredOn(r -> r.getLoggerName().startsWith("com.hazelcast.client"))
                    .filteredOn(r -> r.getThrown() != null).isEmpty();
        } finally {
            root.removeHandler(capture);
            if (pod != null) {
                pod.pod().stop();
            }
        }
    }

    private static long notices(List<LogRecord> records, String text) {
        return records.stream().filter(r -> r.getLoggerName().equals(GridClient.class.getName()))
                .filter(r -> r.getMessage() != null && r.getMessage().contains(text)).count();
    }
}
