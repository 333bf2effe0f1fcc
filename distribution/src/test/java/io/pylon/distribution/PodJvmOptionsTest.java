package io.pylon.distribution;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** `pylon up` (PodProcess) and `pylon run` and the benchmarks (scripts/pod-jvm.sh) start pods with the same JVM options. */
class PodJvmOptionsTest {
    @Test
    void scriptsAndPodProcessAgree() throws Exception {
        String script = Files.readString(Path.of("..", "scripts", "pod-jvm.sh"));
        assertThat(script).as("scripts/pod-jvm.sh; keep it in step with PodProcess.DEFAULT_JAVA_OPTS")
                .contains("PYLON_POD_JVM_OPTS=\"" + PodProcess.DEFAULT_JAVA_OPTS + "\"");
    }
}
