package io.pylon.distribution.cli;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ComparisonFlagsTest {
    @Test
    void outliersAndTheMinorityOfEachDriftAreFlagged() throws Exception {
        JsonNode comparison = HttpJson.MAPPER.readTree("""
                {"outliers":[{"podName":"w-2","metric":"heapAfterGc"},{"podName":"w-2","metric":"cpuLoad"},
                             {"podName":"w-1","metric":"threadsBlocked"}],
                 "drift":{"drifted":true,"versions":[{"value":"1.0","pods":["w-1","w-3"]},{"value":"1.1","pods":["w-2"]}],
                   "commits":[],"javaVersions":[],
                   "env":[{"name":"DB_PASSWORD","masked":true,"groups":[{"hash":"aa","pods":["w-1","w-2"]},
                                                                       {"absent":true,"pods":["w-3"]}]}]}}
                """);
        Map<String, List<String>> flags = ComparisonFlags.of(comparison);
        assertThat(flags.get("w-2")).containsExactly("OUTLIER:heapAfterGc", "OUTLIER:cpuLoad", "DRIFT:version");
        assertThat(flags.get("w-1")).containsExactly("OUTLIER:threadsBlocked");
        assertThat(flags.get("w-3")).containsExactly("DRIFT:env:DB_PASSWORD");
        assertThat(ComparisonFlags.of(null)).isEmpty();
    }

    @Test
    void theFlagsColumnOfAPodShowsThem() {
        PodSnapshot pod = PodSnapshot.failure("w-1", "worker", 502, "down").withCompared(List.of("DRIFT:commit"));
        assertThat(pod.flags()).isEqualTo("ERR502 DRIFT:commit");
    }
}
