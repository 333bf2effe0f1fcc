package io.pylon.cache.grid;

import com.fasterxml.jackson.databind.JsonNode;
import io.pylon.core.http.Json;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class DatagridAggregateTest {

    static JsonNode pod(String name, String key, String localUuid, List<String> members, long owned) throws Exception {
        StringBuilder list = new StringBuilder();
        for (String uuid : members) {
            list.append(list.isEmpty() ? "" : ",").append("{\"uuid\":\"").append(uuid).append("\",\"local\":")
                    .append(uuid.equals(localUuid)).append('}');
        }
        return Json.MAPPER.readTree("{\"podName\":\"" + name + "\",\"" + key + "\":{\"clusterLabel\":\"pylon-x-1\",\"members\":["
                + list + "],\"maps\":{\"m\":{\"ownedEntryCount\":" + owned + ",\"backupEntryCount\":" + (10 - owned) + ",\"hits\":2}}}}");
    }

    @Test
    void addsEachPodsShareAndAgreesWhenEveryPodSeesTheSameMembers() throws Exception {
        var summary = Json.MAPPER.valueToTree(DatagridAggregate.summarize(List.of(
                pod("cache-0", "datagrid", "a", List.of("a", "b"), 4),
                pod("cache-1", "hazelcast", "b", List.of("b", "a"), 6),
                Json.MAPPER.readTree("{\"podName\":\"cache-2\",\"error\":{\"status\":503,\"message\":\"down\"}}"))));
        assertThat(summary.path("podsReporting").asInt()).isEqualTo(2);
        assertThat(summary.path("splitBrain").asBoolean()).isFalse();
        assertThat(summary.path("totalsComplete").asBoolean()).isTrue();
        assertThat(summary.path("maps").path("m").path("ownedEntryCount").asLong()).isEqualTo(10);
        assertThat(summary.path("maps").path("m").path("backupEntryCount").asLong()).isEqualTo(10);
        assertThat(summary.path("maps").path("m").path("hits").asLong()).isEqualTo(4);
    }

    @Test
    void flagsPodsThatDisagreeOnTheMemberListAndMembersThatDidNotReport() throws Exception {
        var summary = Json.MAPPER.valueToTree(DatagridAggregate.summarize(List.of(
                pod("cache-0", "datagrid", "a", List.of("a", "b"), 5),
                pod("cache-1", "datagrid", "c", List.of("c"), 5))));
        assertThat(summary.path("splitBrain").asBoolean()).isTrue();
        assertThat(summary.path("memberViews")).hasSize(2);
        assertThat(summary.path("membersNotReporting").toString()).isEqualTo("[\"b\"]");
        assertThat(summary.path("totalsComplete").asBoolean()).isFalse();
    }
}
