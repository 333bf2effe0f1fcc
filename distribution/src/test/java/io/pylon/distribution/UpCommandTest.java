package io.pylon.distribution;

import io.pylon.core.config.InvalidSettingException;
import io.pylon.core.config.Settings;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Where `pylon up` waits for each pod: the readiness probe under the configured segment, not a fixed one. */
class UpCommandTest {
    private static final LocalPod WORKER = new LocalPod("worker", "worker-0", "127.0.16.4", 8091);

    @Test
    void waitsOnTheDefaultSegmentWhenNoneIsSet() {
        assertThat(UpCommand.readinessUrl(WORKER, UpCommand.paths(Settings.of(Map.of()))))
                .isEqualTo("http://127.0.16.4:8091/platform/management/health/ready");
    }

    @Test
    void honoursANonDefaultSegment() {
        Settings settings = Settings.of(Map.of("pylon.path.segment", "acme"));

        assertThat(UpCommand.readinessUrl(WORKER, UpCommand.paths(settings)))
                .isEqualTo("http://127.0.16.4:8091/acme/management/health/ready");
    }

    @Test
    void anInvalidSegmentIsRefusedBeforeAnyPodStarts() {
        Settings settings = Settings.of(Map.of("pylon.path.segment", "a/b"));

        assertThatThrownBy(() -> UpCommand.paths(settings)).isInstanceOf(InvalidSettingException.class)
                .hasMessageContaining("pylon.path.segment");
    }
}
