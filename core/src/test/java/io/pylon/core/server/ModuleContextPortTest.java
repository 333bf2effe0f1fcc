package io.pylon.core.server;

import io.pylon.core.testing.FakeModule;
import io.pylon.core.testing.TestPods;
import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link ModuleContext#port()} is what the module is told while it starts, and the bound port once the pod runs. */
class ModuleContextPortTest {

    @Test
    void portIsTheConfiguredOneDuringStartAndTheBoundOneAfter() {
        AtomicReference<ModuleContext> seen = new AtomicReference<>();
        AtomicReference<Integer> duringStart = new AtomicReference<>();
        Pod pod = TestPods.start(new FakeModule("worker").onStart(context -> {
            seen.set(context);
            duringStart.set(context.port());
        }));
        try {
            assertThat(duringStart.get()).as("TestPods configures port 0").isZero();
            assertThat(pod.port()).isPositive();
            assertThat(seen.get().port()).isEqualTo(pod.port());
        } finally {
            pod.close();
        }
    }
}
