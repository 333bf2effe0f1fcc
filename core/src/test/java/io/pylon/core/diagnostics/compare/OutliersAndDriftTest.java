package io.pylon.core.diagnostics.compare;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.pylon.core.http.Json;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class OutliersAndDriftTest {
    private static PodFacts pod(String name, Map<String, Double> metrics) {
        return pod(name, "1.0", "abc", metrics, Map.of());
    }

    private static PodFacts pod(String name, String version, String commit, Map<String, Double> metrics,
                                Map<String, PodFacts.EnvValue> env) {
        return new PodFacts(name, "10.0.0.1", version, commit, "21", "UP", metrics, env);
    }

    @Test
    void theOddPodIsFoundAndTheLargestScoreComesFirst() {
        List<PodFacts> pods = List.of(
                pod("w-1", Map.of("threadsBlocked", 0.0, "heapAfterGc", 100e6)),
                pod("w-2", Map.of("threadsBlocked", 1.0, "heapAfterGc", 101e6)),
                pod("w-3", Map.of("threadsBlocked", 0.0, "heapAfterGc", 102e6)),
                pod("w-4", Map.of("threadsBlocked", 41.0, "heapAfterGc", 99e6)),
                pod("w-5", Map.of("threadsBlocked", 0.0, "heapAfterGc", 400e6)));
        List<Outlier> outliers = Outliers.find(pods, 3.5);
        assertThat(outliers).extracting(o -> o.podName() + "/" + o.metric().key())
                .containsExactly("w-5/heapAfterGc", "w-4/threadsBlocked");
        Outlier blocked = outliers.get(1);
        assertThat(blocked.value()).isEqualTo(41);
        assertThat(blocked.median()).isZero();
        assertThat(blocked.mad()).isZero();
        assertThat(blocked.score()).isGreaterThan(3.5);
    }

    @Test
    void aDifferenceBelowTheMetricsFloorIsNoOutlierWhateverItsScore() {
        // 3 threads more than identical pods: a large score, but less than the 5 threads that count
        List<PodFacts> pods = List.of(pod("a", Map.of("threadsBlocked", 0.0)), pod("b", Map.of("threadsBlocked", 0.0)),
                pod("c", Map.of("threadsBlocked", 0.0)), pod("d", Map.of("threadsBlocked", 0.0)),
                pod("e", Map.of("threadsBlocked", 0.0)), pod("f", Map.of("threadsBlocked", 3.0)));
        assertThat(Outliers.find(pods, 3.5)).isEmpty();
    }

    @Test
    void twoPodsAreNeverOutliersAndAPodWithoutTheMetricIsLeftOut() {
        assertThat(Outliers.find(List.of(pod("a", Map.of("heapUsed", 1e6)), pod("b", Map.of("heapUsed", 1e9))), 1))
                .isEmpty();
        List<PodFacts> pods = List.of(pod("a", Map.of("proxy5xx", 0.0)), pod("b", Map.of("proxy5xx", 500.0)),
                pod("c", Map.of()), pod("d", Map.of("proxy5xx", 0.0)), pod("e", Map.of("proxy5xx", 1.0)));
        assertThat(Outliers.find(pods, 3.5)).extracting(Outlier::podName).containsExactly("b");
    }

    @Test
    void versionsCommitsAndEnvironmentThatDifferAreGroupedLargestFirst() {
        PodFacts.EnvValue plain = new PodFacts.EnvValue("aaaaaaaaaaaaaaaa", "INFO");
        PodFacts.EnvValue other = new PodFacts.EnvValue("bbbbbbbbbbbbbbbb", "DEBUG");
        PodFacts.EnvValue secret1 = new PodFacts.EnvValue("cccccccccccccccc", null);
        PodFacts.EnvValue secret2 = new PodFacts.EnvValue("dddddddddddddddd", null);
        List<PodFacts> pods = List.of(
                pod("a", "1.1", "abc", Map.of(), Map.of("LOG", plain, "DB_PASSWORD", secret1, "SAME", plain)),
                pod("b", "1.0", "abc", Map.of(), Map.of("LOG", other, "DB_PASSWORD", secret1, "SAME", plain)),
                pod("c", "1.0", "abc", Map.of(), Map.of("LOG", plain, "DB_PASSWORD", secret2, "SAME", plain)),
                pod("d", "1.0", null, Map.of(), Map.of("LOG", plain, "SAME", plain)));
        Drift.Report drift = Drift.of(pods);
        assertThat(drift.drifted()).isTrue();
        assertThat(drift.versions()).extracting(g -> g.value() + g.pods()).containsExactly("1.0[b, c, d]", "1.1[a]");
        assertThat(drift.commits()).extracting(g -> g.value() + g.pods()).containsExactly("abc[a, b, c]", "unknown[d]");
        assertThat(drift.javaVersions()).isEmpty();
        assertThat(drift.env()).extracting(Drift.EnvDrift::name).containsExactly("DB_PASSWORD", "LOG");
        Drift.EnvDrift password = drift.env().getFirst();
        assertThat(password.masked()).isTrue();
        assertThat(password.groups()).extracting(g -> g.hash() + g.value() + g.absent() + g.pods())
                .containsExactly("ccccccccccccnullfalse[a, b]", "ddddddddddddnullfalse[c]", "nullnulltrue[d]");
        Drift.EnvDrift log = drift.env().get(1);
        assertThat(log.masked()).isFalse();
        assertThat(log.groups()).extracting(g -> g.value() + g.pods()).containsExactly("INFO[a, c, d]", "DEBUG[b]");
    }

    @Test
    void aPodWhoseEnvFailedIsLeftOutOfTheEnvironmentDrift() throws Exception {
        PodFacts.EnvValue v = new PodFacts.EnvValue("aaaaaaaaaaaaaaaa", "x");
        PodFacts failed = PodFacts.of(Json.MAPPER.readTree(
                "{\"podName\":\"c\",\"env\":{\"error\":{\"status\":500,\"message\":\"The env section failed\"}}}"), Set.of());
        assertThat(failed.env()).isNull();
        Drift.Report drift = Drift.of(List.of(pod("a", "1", "c", Map.of(), Map.of("X", v)),
                pod("b", "1", "c", Map.of(), Map.of("X", v)), failed));
        assertThat(drift.env()).isEmpty();
    }

    @Test
    void podsThatAgreeHaveNoDrift() {
        PodFacts.EnvValue v = new PodFacts.EnvValue("aaaaaaaaaaaaaaaa", "x");
        Drift.Report drift = Drift.of(List.of(pod("a", "1", "c", Map.of(), Map.of("X", v)),
                pod("b", "1", "c", Map.of(), Map.of("X", v))));
        assertThat(drift.drifted()).isFalse();
        assertThat(drift.env()).isEmpty();
    }

    @Test
    void factsAreReadFromAnAnswerAndIgnoredVariablesAreDropped() throws Exception {
        ObjectNode answer = (ObjectNode) Json.MAPPER.readTree("""
                {"podName":"w-1","podIp":"10.0.0.9","version":"2.0",
                 "jvm":{"uptime":60000,"memory":{"heap":{"used":5000},"pools":[
                     {"name":"Tenured","type":"HEAP","collectionUsage":{"used":300}},
                     {"name":"Eden","type":"HEAP","collectionUsage":{"used":20}},
                     {"name":"Metaspace","type":"NON_HEAP"}]},
                   "gc":[{"collectionTime":120},{"collectionTime":60}],"cpu":{"processCpuLoad":-1.0}},
                 "threads":{"summary":{"threadCount":30,"deadlockedThreadCount":0},
                   "states":{"RUNNABLE":5,"BLOCKED":2,"WAITING":9,"TIMED_WAITING":4},
                   "executorPools":{"a":{"queueSize":3},"b":{"queueSize":4}}},
                 "health":{"status":"UP","checks":{"memory":{"status":"UP"},"diskSpace":{"status":"DOWN"}},
                   "system":{"javaVersion":"25"},"build":{"commit":"f00"}},
                 "env":{"environmentDigests":{"HOSTNAME":{"hash":"11"},"A":{"hash":"22","value":"x"},"S":{"hash":"33"}}}}
                """);
        PodFacts facts = PodFacts.of(answer, Set.of("HOSTNAME"));
        Map<String, Double> expected = new LinkedHashMap<>();
        expected.put("heapAfterGc", 320.0);
        expected.put("heapUsed", 5000.0);
        expected.put("gcTimeRate", 3.0);
        expected.put("uptime", 60000.0);
        expected.put("threadCount", 30.0);
        expected.put("threadsRunnable", 5.0);
        expected.put("threadsBlocked", 2.0);
        expected.put("threadsWaiting", 9.0);
        expected.put("threadsTimedWaiting", 4.0);
        expected.put("deadlockedThreads", 0.0);
        expected.put("poolPending", 7.0);
        expected.put("checksDown", 1.0);
        assertThat(facts.metrics()).containsExactlyEntriesOf(expected);
        assertThat(facts.commit()).isEqualTo("f00");
        assertThat(facts.javaVersion()).isEqualTo("25");
        assertThat(facts.env()).containsOnlyKeys("A", "S");
        assertThat(facts.env().get("A").value()).isEqualTo("x");
        assertThat(facts.env().get("S").masked()).isTrue();
    }
}
