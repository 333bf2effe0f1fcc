package io.pylon.distribution;

import io.pylon.core.server.Pod;
import io.pylon.core.server.PylonModule;
import io.pylon.core.testing.TestPods;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A real pod of every module ServiceLoader finds (the five of the platform), each with its own grid port, started
 * once for the test class; {@link #modules()} feeds parameterized tests.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class OnePodPerModule {
    static final List<String> MODULES = List.of("cache", "integration", "manager", "portal", "worker");

    final Map<String, Pod> pods = new LinkedHashMap<>();

    /** Ends each pod's name ({@code <module>-<suffix>}). */
    abstract String podSuffix();

    /** Settings every pod gets besides the test defaults. */
    Map<String, String> settings() {
        return Map.of();
    }

    @BeforeAll
    void startOnePodPerModule() {
        for (PylonModule module : Modules.all()) {
            Map<String, String> settings = new HashMap<>(settings());
            settings.put("pylon.grid.port", String.valueOf(TestPods.freePort()));
            pods.put(module.name(), TestPods.start(module, module.name() + "-" + podSuffix(), settings));
        }
        assertThat(pods.keySet()).containsExactlyInAnyOrderElementsOf(MODULES);
    }

    @AfterAll
    void stopAll() {
        pods.values().forEach(Pod::close);
    }

    List<String> modules() {
        return MODULES;
    }
}
