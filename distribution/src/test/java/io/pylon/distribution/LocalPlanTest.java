package io.pylon.distribution;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Where `pylon up`'s pods go and what the Integration pods are told: eight pods on seven addresses, the two Integration
 * pods on the sixth with consecutive ports, one shared H2 file in automatic mixed mode, the Manager given both.
 */
class LocalPlanTest {
    private static final String FIRST = "127.0.55.241";

    @Test
    void theIntegrationPodsShareTheSixthAddress() {
        List<LocalPod> pods = LocalPlan.create(FIRST);

        assertThat(pods).extracting(LocalPod::name).containsExactly("manager", "cache-0", "cache-1", "worker-0",
                "worker-1", "integration-0", "integration-1", "portal");
        assertThat(pods.stream().filter(p -> p.module().equals("integration")).map(LocalPod::url))
                .containsExactly("http://127.0.55.246:8092", "http://127.0.55.246:8093");
        assertThat(pods.get(7).url()).isEqualTo("http://127.0.55.247:8080");
        assertThat(LocalPlan.addressCount()).isEqualTo(7);
        assertThat(LocalPlan.checkFirstAddress("127.0.55.248")).isNull();
        assertThat(LocalPlan.checkFirstAddress("127.0.55.249")).contains("no room for 7 consecutive addresses");
    }

    @Test
    void theIntegrationPodsShareOneDatabaseAndTheManagerKnowsBoth(@TempDir Path state) throws Exception {
        List<LocalPod> pods = LocalPlan.create(FIRST);
        LocalEnvironment environment = LocalEnvironment.load(state);
        LocalPod first = pods.get(5);
        LocalPod second = pods.get(6);

        Map<String, String> one = PodProcess.moduleEnvironment(first, pods, environment, state, Map.of());
        Map<String, String> two = PodProcess.moduleEnvironment(second, pods, environment, state, Map.of());

        assertThat(one.get("PYLON_INTEGRATION_DB_URL")).isEqualTo(two.get("PYLON_INTEGRATION_DB_URL"))
                .startsWith("jdbc:h2:file:" + state.resolve("data").resolve("integration"))
                .contains(";AUTO_SERVER=TRUE");
        assertThat(one.get("PYLON_INTEGRATION_SECRETS_DIR")).isEqualTo(two.get("PYLON_INTEGRATION_SECRETS_DIR"));
        assertThat(one.get("PYLON_DISCOVERY_STATIC"))
                .isEqualTo("integration-0=http://127.0.55.246:8092,integration-1=http://127.0.55.246:8093");
        assertThat(PodProcess.moduleEnvironment(pods.get(0), pods, environment, state, Map.of())
                .get("PYLON_MANAGER_INTEGRATION_URL")).isEqualTo("http://127.0.55.246:8092,http://127.0.55.246:8093");

        // an operator's own database and secrets folder are kept
        Map<String, String> own = PodProcess.moduleEnvironment(first, pods, environment, state,
                Map.of("PYLON_INTEGRATION_DB_URL", "jdbc:postgresql://db:5432/pylon", "PYLON_INTEGRATION_SECRETS_DIR", "/s"));
        assertThat(own).doesNotContainKeys("PYLON_INTEGRATION_DB_URL", "PYLON_INTEGRATION_SECRETS_DIR");
    }
}
