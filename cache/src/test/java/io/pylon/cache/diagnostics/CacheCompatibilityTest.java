package io.pylon.cache.diagnostics;

import io.pylon.cache.CacheModule;
import io.pylon.core.diagnostics.CompatibilityContract;
import io.pylon.core.testing.PeerPods;
import io.pylon.core.testing.TestPods;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Two real Cache pods (one-member grids each) that list each other, and a third that is gone, answer
 * compatibility.md's fields, single and broadcast.
 */
class CacheCompatibilityTest {
    private static final CompatibilityContract CONTRACT = new CompatibilityContract("cache", Set.of("connections"));
    private static PeerPods pods;

    @BeforeAll
    static void start() throws Exception {
        pods = PeerPods.start("cache", CacheModule::new, gonePort -> {
            int gridPort = TestPods.freePort();
            return Map.of("pylon.grid.port", String.valueOf(gridPort), "pylon.grid.members", "127.0.0.1:" + gridPort);
        });
    }

    @AfterAll
    static void stop() {
        if (pods != null) {
            pods.close();
        }
    }

    @Test
    void singlePodAnswersCarryEveryFieldTheSpecLists() {
        CONTRACT.assertSingle(pods.first());
    }

    @Test
    void broadcastAnswersListEveryPodWithTheSpecsFields() {
        CONTRACT.assertBroadcast(pods.second(), List.of("cache-0", "cache-1"), "cache-gone");
    }
}
