package io.pylon.core.pod;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The names the JDK gives its poller threads tell the kinds apart (a pod's report of them: PodIoPollersTest). */
class IoPollersTest {
    @Test
    void thePollersThreadNamesTellTheirKind() {
        assertThat(IoPollers.kindOf("Read-Poller")).isEqualTo("platform threads");
        assertThat(IoPollers.kindOf("MasterPoller")).isEqualTo("virtual threads");
        assertThat(IoPollers.kindOf("Write-Poller")).isNull();
        assertThat(IoPollers.kindOf("main")).isNull();
    }
}
