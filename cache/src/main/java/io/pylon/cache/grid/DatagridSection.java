package io.pylon.cache.grid;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.DistributedObject;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import com.hazelcast.map.LocalMapStats;
import io.pylon.core.diagnostics.DiagnosticSection;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * {@code datagrid} (alias {@code hazelcast}): this member's view of the cluster and its own share of every map.
 * A broadcast collects every member's share; {@link DatagridAggregate} adds them up.
 */
public final class DatagridSection implements DiagnosticSection {
    private static final String MAP_SERVICE = "hz:impl:mapService";

    private final GridMember member;
    private final HazelcastInternals internals;
    private final ClusterSafety safety;
    private final String clusterLabel;

    /** @param clusterLabel what the section shows of the cluster's name: the label, never the secret name itself */
    public DatagridSection(GridMember member, ClusterSafety safety, String clusterLabel) {
        this.member = member;
        this.internals = new HazelcastInternals(member.instance());
        this.safety = safety;
        this.clusterLabel = clusterLabel;
    }

    @Override
    public String name() {
        return "datagrid";
    }

    @Override
    public Set<String> aliases() {
        return Set.of("hazelcast");
    }

    @Override
    public boolean aggregates() {
        return true;
    }

    /** In a broadcast: totals per map over every member's share, and a split-brain flag. */
    @Override
    public Object aggregate(java.util.List<com.fasterxml.jackson.databind.JsonNode> pods) {
        return DatagridAggregate.summarize(pods);
    }

    @Override
    public Object collect() {
        HazelcastInstance instance = member.instance();
        Map<String, Object> section = new LinkedHashMap<>();
        section.put("running", member.isRunning());
        if (!member.isRunning()) {
            return section;
        }
        section.put("clusterLabel", clusterLabel);
        section.put("clusterState", instance.getCluster().getClusterState().name());
        Map<String, Object> safe = safety.latest();
        section.put("clusterSafe", safe.get("clusterSafe"));
        section.put("localMemberSafe", safe.get("localMemberSafe"));
        section.put("safetyCheckedAt", safe.get("safetyCheckedAt"));
        Set<Member> members = instance.getCluster().getMembers();
        section.put("memberCount", members.size());
        section.put("members", members(members));
        section.put("partitionCount", internals.partitionCount());
        section.put("ownedPartitions", internals.ownedPartitions());
        section.put("maps", maps(instance));
        section.put("executors", internals.executors());
        return section;
    }

    /**
     * Every member lists the members in the same order, oldest first, and the oldest is the grid's master (Hazelcast's
     * {@code Cluster.getMembers}): the first is marked so. Operators ask which one it is when a member leaves, because
     * only the master's leaving makes the others log warnings (docs/cache.md).
     */
    private static List<Map<String, Object>> members(Set<Member> members) {
        List<Map<String, Object>> list = new ArrayList<>(members.size());
        for (Member m : members) {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("uuid", m.getUuid().toString());
            entry.put("address", m.getAddress().getHost() + ":" + m.getAddress().getPort());
            entry.put("version", m.getVersion().toString());
            entry.put("local", m.localMember());
            entry.put("liteMember", m.isLiteMember());
            entry.put("master", list.isEmpty());
            list.add(entry);
        }
        return list;
    }

    private static Map<String, Object> maps(HazelcastInstance instance) {
        List<IMap<?, ?>> maps = new ArrayList<>();
        for (DistributedObject object : instance.getDistributedObjects()) {
            if (MAP_SERVICE.equals(object.getServiceName()) && !object.getName().startsWith("__") && object instanceof IMap<?, ?> map) {
                maps.add(map);
            }
        }
        maps.sort(Comparator.comparing(DistributedObject::getName));
        Map<String, Object> byName = new TreeMap<>();
        for (IMap<?, ?> map : maps) {
            byName.put(map.getName(), stats(map.getLocalMapStats()));
        }
        return byName;
    }

    private static Map<String, Object> stats(LocalMapStats s) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("ownedEntryCount", s.getOwnedEntryCount());
        m.put("backupEntryCount", s.getBackupEntryCount());
        m.put("backupCount", s.getBackupCount());
        m.put("ownedEntryMemoryCost", s.getOwnedEntryMemoryCost());
        m.put("backupEntryMemoryCost", s.getBackupEntryMemoryCost());
        m.put("hits", s.getHits());
        m.put("getOperationCount", s.getGetOperationCount());
        m.put("putOperationCount", s.getPutOperationCount());
        m.put("setOperationCount", s.getSetOperationCount());
        m.put("removeOperationCount", s.getRemoveOperationCount());
        m.put("otherOperationCount", s.getOtherOperationCount());
        m.put("averageGetLatencyMs", average(s.getTotalGetLatency(), s.getGetOperationCount()));
        m.put("averagePutLatencyMs", average(s.getTotalPutLatency(), s.getPutOperationCount()));
        m.put("averageSetLatencyMs", average(s.getTotalSetLatency(), s.getSetOperationCount()));
        m.put("averageRemoveLatencyMs", average(s.getTotalRemoveLatency(), s.getRemoveOperationCount()));
        m.put("evictionCount", s.getEvictionCount());
        m.put("expirationCount", s.getExpirationCount());
        m.put("lastAccessTime", s.getLastAccessTime());
        m.put("lastUpdateTime", s.getLastUpdateTime());
        return m;
    }

    // Hazelcast keeps total latencies in milliseconds.
    private static double average(long totalMillis, long count) {
        return count == 0 ? 0 : Math.round(totalMillis * 1000.0 / count) / 1000.0;
    }
}
