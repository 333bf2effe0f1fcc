package io.pylon.cache.diagnostics;

import io.pylon.cache.CacheModule;
import io.pylon.core.diagnostics.CompatibilityContract;
import io.pylon.core.server.Pod;
import io.pylon.core.testing.TestPods;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Two real Cache pods (one-member grids each) that list each other, and a third that is gone, answer
 * compatibility.md's fields, single and broadcast.
 */
class CacheCompatibilityTest {
    private static final CompatibilityContract CONTRACT = new CompatibilityContract("cache", Set.of("connections"));
    private static Pod first;
    private static Pod second;

    @BeforeAll
    static void start() {
        int port0 = TestPods.freePort();
        int port1 = TestPods.freePort();
        int gone = TestPods.freePort();
        String peers = "cache-0=http://127.0.0.1:" + port0 + ",cache-1=http://127.0.0.1:" + port1
                + ",cache-gone=http://127.0.0.1:" + gone;
        first = TestPods.start(new CacheModule(), "cache-0", settings(port0, TestPods.freePort(), peers));
        second = TestPods.start(new CacheModule(), "cache-1", settings(port1, TestPods.freePort(), peers));
    }

    @AfterAll
    static void stop() {
        for (Pod pod : new Pod[] {first, second}) {
            if (pod != null) {
                pod.stop();
            }
        }
    }

    @Test
    void singlePodAnswersCarryEveryFieldTheSpecLists() {
        CONTRACT.assertSingle(first);
    }

    @Test
    void broadcastAnswersListEveryPodWithTheSpecsFields() {
        CONTRACT.assertBroadcast(second, List.of("cache-0", "cache-1"), "cache-gone");
    }

    private static Map<String, String> settings(int httpPort, int gridPort, String peers) {
        Map<String, String> settings = new HashMap<>();
        settings.put("pylon.server.port", String.valueOf(httpPort));
        settings.put("pylon.grid.port", String.valueOf(gridPort));
        settings.put("pylon.grid.members", "127.0.0.1:" + gridPort);
        settings.put("pylon.discovery.static", peers);
        return settings;
    }
}
