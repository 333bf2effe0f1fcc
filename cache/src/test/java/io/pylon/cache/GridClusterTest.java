package io.pylon.cache;

import com.fasterxml.jackson.databind.JsonNode;
import io.pylon.cache.GridTestPods.CachePod;
import io.pylon.cache.GridTestPods.Slot;
import io.pylon.cache.client.GridClient;
import io.pylon.cache.client.GridMaps;
import io.pylon.cache.grid.DatagridAggregate;
import io.pylon.core.http.Json;
import io.pylon.core.http.PodPaths;
import io.pylon.core.testing.TestPods;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two, then three real Cache pods (each a Hazelcast member on its own 127.6.0.x address) form one cluster; a
 * Worker-side client writes through any of them; every member sees every entry; the datagrid sections add up to what
 * was written; a member leaves without losing entries; another environment on the same machine stays apart.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class GridClusterTest {
    static final int RESPONSES = 500;
    static final int COUNTERS = 200;

    static final List<Slot> SLOTS = List.of(GridTestPods.slot("127.6.0.1"), GridTestPods.slot("127.6.0.2"),
            GridTestPods.slot("127.6.0.3"));
    /** The same HTTP port on each pod's own address, so that the pods can list each other for broadcasts. */
    static final int HTTP_PORT = GridTestPods.slot("127.6.0.1").gridPort();
    static final Map<String, String> CLUSTER = Map.of("pylon.grid.expected-members", "3",
            "pylon.server.port", String.valueOf(HTTP_PORT),
            "pylon.discovery.static", "cache-0=http://127.6.0.1:" + HTTP_PORT + ",cache-1=http://127.6.0.2:" + HTTP_PORT
                    + ",cache-2=http://127.6.0.3:" + HTTP_PORT);
    static final List<CachePod> pods = new ArrayList<>();
    static GridClient client;

    @BeforeAll
    static void twoPods() {
        String members = GridTestPods.members(SLOTS);
        pods.add(GridTestPods.start("cache-0", SLOTS.get(0), members, CLUSTER));
        pods.add(GridTestPods.start("cache-1", SLOTS.get(1), members, CLUSTER));
        client = GridTestPods.client(SLOTS.get(0).member());
        GridTestPods.await("client connected", Duration.ofSeconds(15), () -> client.describe().get("state").equals("CONNECTED"));
    }

    @AfterAll
    static void stopAll() {
        if (client != null) {
            client.close();
        }
        pods.forEach(p -> p.pod().stop());
    }

    @Test
    @Order(1)
    void twoPodsFormOneClusterAndAreReady() throws Exception {
        for (CachePod pod : pods.subList(0, 2)) {
            Map<String, Object> section = pod.section();
            assertThat(section.get("memberCount")).isEqualTo(2);
            assertThat(section.get("clusterState")).isEqualTo("ACTIVE");
            assertThat((String) section.get("clusterLabel")).startsWith("pylon-test-").doesNotContain(TestPods.ENVIRONMENT_ID);
            assertThat(section.get("partitionCount")).isEqualTo(271);
        }
        var ready = TestPods.get(pods.get(0).pod(), PodPaths.defaults().ready());
        assertThat(ready.statusCode()).isEqualTo(200);
        JsonNode health = Json.MAPPER.readTree(TestPods.get(pods.get(0).pod(), PodPaths.defaults().health()).body());
        JsonNode check = health.path("checks").path("datagrid");
        assertThat(check.path("status").asText()).isEqualTo("UP");
        assertThat(check.path("memberCount").asInt()).isEqualTo(2);
        assertThat(check.path("expectedMembers").asInt()).isEqualTo(3);
        assertThat(check.path("memberCountMatches").asBoolean()).isFalse();
    }

    @Test
    @Order(2)
    void entriesWrittenThroughTheClientAreVisibleFromEveryMemberAndTheSharesAddUp() throws Exception {
        for (int i = 0; i < RESPONSES; i++) {
            client.responses().put("response-" + i, ("body " + i).getBytes(StandardCharsets.UTF_8), Duration.ofMinutes(10));
        }
        for (int i = 0; i < COUNTERS; i++) {
            assertThat(client.counters().increment("counter-" + i, Duration.ofHours(1))).isEqualTo(1);
        }
        for (CachePod pod : pods) {
            var responses = pod.module().member().instance().<String, byte[]>getMap(GridMaps.RESPONSES);
            assertThat(responses.size()).isEqualTo(RESPONSES);
            assertThat(new String(responses.get("response-7"), StandardCharsets.UTF_8)).isEqualTo("body 7");
            assertThat(pod.module().member().instance().getMap(GridMaps.COUNTERS).size()).isEqualTo(COUNTERS);
        }

        List<JsonNode> elements = new ArrayList<>();
        List<Long> owned = new ArrayList<>();
        for (int i = 0; i < pods.size(); i++) {
            JsonNode element = pods.get(i).asBroadcastElement();
            elements.add(element);
            owned.add(element.path("datagrid").path("maps").path(GridMaps.RESPONSES).path("ownedEntryCount").asLong());
        }
        // each member reports its own share, not the whole map
        assertThat(owned).allSatisfy(share -> assertThat(share).isPositive().isLessThan(RESPONSES));
        JsonNode summary = Json.MAPPER.valueToTree(DatagridAggregate.summarize(elements));
        assertThat(summary.path("maps").path(GridMaps.RESPONSES).path("ownedEntryCount").asLong()).isEqualTo(RESPONSES);
        assertThat(summary.path("maps").path(GridMaps.RESPONSES).path("backupEntryCount").asLong()).isEqualTo(RESPONSES);
        assertThat(summary.path("maps").path(GridMaps.COUNTERS).path("ownedEntryCount").asLong()).isEqualTo(COUNTERS);
        assertThat(summary.path("splitBrain").asBoolean()).isFalse();
        assertThat(summary.path("totalsComplete").asBoolean()).isTrue();
    }

    @Test
    @Order(3)
    void aThirdPodJoinsAndEveryPodSeesThreeMembers() throws Exception {
        pods.add(GridTestPods.start("cache-2", SLOTS.get(2), GridTestPods.members(SLOTS), CLUSTER));
        List<List<String>> masters = new ArrayList<>();
        for (CachePod pod : pods) {
            GridTestPods.await("three members", Duration.ofSeconds(20), () -> pod.module().member().instance().getCluster().getMembers().size() == 3);
            Map<String, Object> section = pod.section();
            assertThat(section.get("memberCount")).isEqualTo(3);
            @SuppressWarnings("unchecked")
            List<Map<String, Object>> members = (List<Map<String, Object>>) section.get("members");
            assertThat(members).filteredOn(m -> Boolean.TRUE.equals(m.get("local"))).singleElement()
                    .satisfies(m -> assertThat((String) m.get("address")).startsWith(pod.pod().identity().podIp() + ":"));
            masters.add(members.stream().filter(m -> Boolean.TRUE.equals(m.get("master")))
                    .map(m -> (String) m.get("address")).toList());
        }
        // one master, the same in every pod's view: cache-0, which formed the grid before the others joined
        assertThat(masters).allSatisfy(m -> assertThat(m).singleElement().asString()
                .startsWith(SLOTS.get(0).address() + ":"));
        GridTestPods.await("partitions migrated", Duration.ofSeconds(30),
                () -> pods.stream().allMatch(p -> p.module().member().instance().getPartitionService().isClusterSafe()));
        // datagrid reports the background safety check, refreshed every couple of seconds
        GridTestPods.await("datagrid reports a safe cluster", Duration.ofSeconds(15),
                () -> pods.stream().allMatch(p -> Boolean.TRUE.equals(sectionValue(p, "clusterSafe"))));
        List<JsonNode> elements = new ArrayList<>();
        for (CachePod pod : pods) {
            elements.add(pod.asBroadcastElement());
        }
        JsonNode summary = Json.MAPPER.valueToTree(DatagridAggregate.summarize(elements));
        assertThat(summary.path("maps").path(GridMaps.RESPONSES).path("ownedEntryCount").asLong()).isEqualTo(RESPONSES);
        assertThat(elements).allSatisfy(e -> assertThat(e.path("datagrid").path("ownedPartitions").asInt()).isBetween(1, 270));
        JsonNode check = Json.MAPPER.readTree(TestPods.get(pods.get(2).pod(), PodPaths.defaults().health()).body())
                .path("checks").path("datagrid");
        assertThat(check.path("memberCountMatches").asBoolean()).isTrue();

        // the HTTP broadcast: every pod's share, and the cluster-wide totals beside pods, under the name asked for
        for (String name : List.of("datagrid", "hazelcast")) {
            var response = TestPods.get(pods.get(1).pod(), PodPaths.defaults().diagnostics(name), "Authorization", TestPods.ENVIRONMENT_ID);
            assertThat(response.statusCode()).isEqualTo(200);
            JsonNode broadcast = Json.MAPPER.readTree(response.body());
            assertThat(broadcast.path("pods")).hasSize(3);
            assertThat(broadcast.path("summary").path("succeeded").asInt()).isEqualTo(3);
            JsonNode totals = broadcast.path(name);
            assertThat(totals.path("maps").path(GridMaps.RESPONSES).path("ownedEntryCount").asLong()).isEqualTo(RESPONSES);
            assertThat(totals.path("maps").path(GridMaps.COUNTERS).path("ownedEntryCount").asLong()).isEqualTo(COUNTERS);
            assertThat(totals.path("splitBrain").asBoolean()).isFalse();
            assertThat(totals.path("totalsComplete").asBoolean()).isTrue();
        }
    }

    private static Object sectionValue(CachePod pod, String key) {
        try {
            return pod.section().get(key);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    @Order(4)
    void stoppingOneMemberKeepsEveryEntry() throws Exception {
        pods.get(0).pod().stop();
        for (CachePod pod : pods.subList(1, 3)) {
            GridTestPods.await("two members", Duration.ofSeconds(20), () -> pod.module().member().instance().getCluster().getMembers().size() == 2);
            assertThat(pod.section().get("memberCount")).isEqualTo(2);
            assertThat(pod.module().member().instance().getMap(GridMaps.RESPONSES).size()).isEqualTo(RESPONSES);
        }
        // the client was given only the stopped member's address: it learned the others and moved to them
        GridTestPods.await("client reconnected", Duration.ofSeconds(15), () -> client.describe().get("state").equals("CONNECTED"));
        for (int i = 0; i < RESPONSES; i++) {
            assertThat(client.responses().get("response-" + i)).as("response-" + i).isPresent();
        }
        assertThat(client.counters().increment("counter-3", Duration.ofHours(1))).isEqualTo(2);
    }

    @Test
    @Order(5)
    void anotherEnvironmentOnTheSameMachineFormsItsOwnCluster() throws Exception {
        Slot other = GridTestPods.slot("127.6.0.4");
        CachePod stranger = GridTestPods.start("cache-other", other, other.member() + "," + SLOTS.get(1).member(),
                Map.of("pylon.environment.name", "test", "pylon.environment.id", "fedcba9876543210fedcba98"));
        try {
            Map<String, Object> section = stranger.section();
            assertThat(section.get("memberCount")).isEqualTo(1);
            assertThat(section.get("clusterLabel")).isNotEqualTo(pods.get(1).section().get("clusterLabel"));
            assertThat(pods.get(1).section().get("memberCount")).isEqualTo(2);
            assertThat(stranger.module().member().instance().getMap(GridMaps.RESPONSES).size()).isZero();
        } finally {
            stranger.pod().stop();
        }
    }
}
