package io.pylon.core.diagnostics;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The parser reads what compatibility.md lists, and a spec it cannot read fails instead of checking nothing. */
class CompatibilitySpecTest {

    @Test
    void readsTheFieldListsOfTheCompatibilityPage() {
        CompatibilitySpec spec = CompatibilitySpec.load();
        assertThat(spec.envelope()).contains("podName", "podIp", "namespace", "nodeName", "envName", "module",
                "version", "responseTime");
        assertThat(spec.sections()).containsEntry("threaddump", "threadDump").containsEntry("jvm", "jvm")
                .containsKeys("connections", "datagrid");
        assertThat(spec.fields()).anySatisfy(f -> {
            assertThat(f.path()).isEqualTo("threads.executorPools.platform-async");
            assertThat(f.members()).contains("poolSize", "rejectedTaskCount");
        });
        assertThat(spec.fields()).anySatisfy(f -> {
            assertThat(f.path()).isEqualTo("health.checks.connections.activeConnections");
            assertThat(f.module()).isEqualTo("worker");
        });
        assertThat(spec.fields()).noneSatisfy(f -> assertThat(f.path()).startsWith("real"));
        assertThat(spec.broadcastPaths()).contains("podName", "jvm.memory.heap.used", "connections.active");
        assertThat(spec.unreachable().top()).containsExactly("podName", "podIp");
        assertThat(spec.unreachable().error()).isEqualTo("error");
        assertThat(spec.unreachable().errorMembers()).containsExactly("status", "message");
    }

    @Test
    void aSpecWhoseListsCannotBeReadFails() {
        assertThatThrownBy(() -> CompatibilitySpec.parse("## Single-pod object\nnothing\n## Broadcast object\nnone\n", "platform"))
                .isInstanceOf(AssertionError.class).hasMessageContaining("compatibility.md");
    }
}
