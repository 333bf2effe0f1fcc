package io.pylon.cache.grid;

import com.hazelcast.cluster.ClusterState;
import com.hazelcast.core.HazelcastInstance;
import io.pylon.core.health.CheckResult;
import io.pylon.core.health.HealthCheck;
import org.jspecify.annotations.Nullable;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Readiness of a Cache pod's data grid: the member runs and the cluster state is ACTIVE. Also reports the member
 * count against the expected cluster size (informational: a cluster that lost a member still serves every entry
 * from backups, so it stays ready).
 */
public final class DatagridCheck implements HealthCheck {
    private final GridMember member;
    private final @Nullable Integer expectedMembers;

    public DatagridCheck(GridMember member, @Nullable Integer expectedMembers) {
        this.member = member;
        this.expectedMembers = expectedMembers;
    }

    @Override
    public String name() {
        return "datagrid";
    }

    @Override
    public Set<Probe> probes() {
        return Set.of(Probe.READINESS);
    }

    @Override
    public CheckResult check() {
        Map<String, Object> details = new LinkedHashMap<>();
        if (!member.isRunning()) {
            details.put("running", false);
            return CheckResult.down(details);
        }
        HazelcastInstance instance = member.instance();
        ClusterState state = instance.getCluster().getClusterState();
        int members = instance.getCluster().getMembers().size();
        details.put("running", true);
        details.put("clusterState", state.name());
        details.put("memberCount", members);
        if (expectedMembers != null) {
            details.put("expectedMembers", expectedMembers);
            details.put("memberCountMatches", members == expectedMembers);
        }
        return CheckResult.of(state == ClusterState.ACTIVE, details);
    }
}
