package io.pylon.cache.grid;

import com.fasterxml.jackson.databind.JsonNode;
import org.jspecify.annotations.Nullable;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The cluster-wide part of a {@code datagrid} broadcast, computed from the pods' own answers: totals per map (each
 * member reports only its share, so owned entries add up to the map's size), and a split-brain flag when pods
 * disagree on the member list. For the broadcast code to put beside {@code pods}, e.g. under {@code datagrid}.
 */
public final class DatagridAggregate {
    /** Per-map counters that add up across members; averages and times do not. */
    static final List<String> SUMMED = List.of("ownedEntryCount", "backupEntryCount", "ownedEntryMemoryCost",
            "backupEntryMemoryCost", "hits", "getOperationCount", "putOperationCount", "setOperationCount",
            "removeOperationCount", "otherOperationCount", "evictionCount", "expirationCount");

    private DatagridAggregate() {
    }

    /**
     * @param pods the elements of a broadcast's {@code pods}; the section is read under {@code datagrid} or
     *             {@code hazelcast}; pods with an {@code error} or without the section are skipped
     */
    public static Map<String, Object> summarize(List<JsonNode> pods) {
        Map<String, Map<String, Long>> maps = new TreeMap<>();
        Map<Set<String>, List<String>> views = new LinkedHashMap<>();
        Set<String> clusterLabels = new TreeSet<>();
        Set<String> reportingMembers = new TreeSet<>();
        Set<String> knownMembers = new TreeSet<>();
        int reporting = 0;
        for (JsonNode pod : pods) {
            JsonNode grid = section(pod);
            if (grid == null) {
                continue;
            }
            reporting++;
            if (grid.hasNonNull("clusterLabel")) {
                clusterLabels.add(grid.get("clusterLabel").asText());
            }
            Set<String> members = new TreeSet<>();
            for (JsonNode member : grid.path("members")) {
                String uuid = member.path("uuid").asText();
                members.add(uuid);
                if (member.path("local").asBoolean()) {
                    reportingMembers.add(uuid);
                }
            }
            knownMembers.addAll(members);
            views.computeIfAbsent(members, k -> new ArrayList<>()).add(pod.path("podName").asText());
            addMaps(grid.path("maps"), maps);
        }
        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("podsReporting", reporting);
        summary.put("clusterLabels", List.copyOf(clusterLabels));
        summary.put("splitBrain", views.size() > 1 || clusterLabels.size() > 1);
        List<Map<String, Object>> memberViews = new ArrayList<>();
        views.forEach((members, podNames) -> {
            Map<String, Object> view = new LinkedHashMap<>();
            view.put("memberCount", members.size());
            view.put("members", List.copyOf(members));
            view.put("pods", List.copyOf(podNames));
            memberViews.add(view);
        });
        summary.put("memberViews", memberViews);
        Set<String> silent = new LinkedHashSet<>(knownMembers);
        silent.removeAll(reportingMembers);
        // totals miss the share of a member whose pod did not answer
        summary.put("membersNotReporting", List.copyOf(silent));
        summary.put("totalsComplete", silent.isEmpty() && reporting > 0);
        summary.put("maps", maps);
        return summary;
    }

    private static @Nullable JsonNode section(JsonNode pod) {
        if (pod == null || pod.has("error")) {
            return null;
        }
        JsonNode grid = pod.get("datagrid");
        if (grid == null || !grid.isObject()) {
            grid = pod.get("hazelcast");
        }
        return grid != null && grid.isObject() ? grid : null;
    }

    private static void addMaps(JsonNode mapsNode, Map<String, Map<String, Long>> totals) {
        Iterator<Map.Entry<String, JsonNode>> fields = mapsNode.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> map = fields.next();
            Map<String, Long> total = totals.computeIfAbsent(map.getKey(), k -> new LinkedHashMap<>());
            for (String counter : SUMMED) {
                total.merge(counter, map.getValue().path(counter).asLong(), Long::sum);
            }
        }
    }
}
