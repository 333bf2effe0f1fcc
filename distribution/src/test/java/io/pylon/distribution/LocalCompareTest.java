package io.pylon.distribution;

import io.pylon.core.config.Settings;
import io.pylon.core.diagnostics.compare.CompareSettings;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The pods of `pylon up` each have a data folder of their own: 'compare' must not call that drift. */
class LocalCompareTest {

    @Test
    void localPodsIgnoreTheirDataFolderBesideTheDefaultNames() {
        Map<String, String> env = new HashMap<>();
        PodProcess.ignoreLocalDifferences(env);
        // read back as the pod reads it: the setting's own parser
        List<String> ignored = Settings.of(Map.of(CompareSettings.IGNORE_ENV.key(),
                env.get(CompareSettings.IGNORE_ENV.envName()))).get(CompareSettings.IGNORE_ENV);
        assertThat(ignored).contains("PYLON_DATA_DIR").containsAll(CompareSettings.IGNORE_ENV.defaultValue());
    }

    @Test
    void anOperatorsOwnListIsKept() {
        Map<String, String> env = new HashMap<>(Map.of(CompareSettings.IGNORE_ENV.envName(), "HOSTNAME,BUILD_TAG"));
        PodProcess.ignoreLocalDifferences(env);
        assertThat(env).containsEntry(CompareSettings.IGNORE_ENV.envName(), "HOSTNAME,BUILD_TAG");
    }
}
