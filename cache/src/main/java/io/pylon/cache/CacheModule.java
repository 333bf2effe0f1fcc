package io.pylon.cache;

import io.pylon.cache.client.GridClusterName;
import io.pylon.cache.grid.ClusterSafety;
import io.pylon.cache.grid.DatagridCheck;
import io.pylon.cache.grid.DatagridSection;
import io.pylon.cache.grid.GridMember;
import io.pylon.cache.grid.GridMemberConfig;
import io.pylon.cache.grid.GridMeters;
import io.pylon.cache.grid.GridSettings;
import io.pylon.cache.grid.HazelcastPools;
import io.pylon.core.config.Setting;
import io.pylon.core.config.Settings;
import io.pylon.core.server.ModuleContext;
import io.pylon.core.server.PylonModule;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.List;

/**
 * The Cache: the platform's data grid (Hazelcast), with diagnostics of its pods.
 *
 * <p>Threading: {@code start} runs once on the starting thread and publishes the member and the datagrid section
 * through volatile fields, which diagnostics and health threads read afterwards.
 */
public final class CacheModule implements PylonModule {
    public static final String NAME = "cache";

    /** How often the cluster's safety (migrations, backups in sync) is checked for {@code datagrid}. */
    static final Duration SAFETY_CHECK_PERIOD = Duration.ofSeconds(2);

    private volatile @Nullable GridMember member;
    private volatile @Nullable DatagridSection datagrid;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String displayName() {
        return "Cache";
    }

    @Override
    public int defaultPort() {
        return 8090;
    }

    @Override
    public boolean servesDiagnostics() {
        return true;
    }

    @Override
    public List<Setting<?>> settings() {
        return GridSettings.all();
    }

    @Override
    public void start(ModuleContext context) {
        GridClusterName clusterName = GridClusterName.of(context.settings());
        member = GridMember.start(GridMemberConfig.build(context.settings(), context.identity(), clusterName));
        context.onStop(member);
        context.health().register(new DatagridCheck(member, expectedMembers(context.settings())));
        ClusterSafety safety = new ClusterSafety(member);
        safety.run();
        context.every("Checking the data grid's safety", SAFETY_CHECK_PERIOD, SAFETY_CHECK_PERIOD, safety);
        datagrid = new DatagridSection(member, safety, clusterName.label());
        context.diagnostics().register(datagrid);
        HazelcastPools.register(member, context.executors());
        GridMeters.bind(member, safety, context.metrics());
    }

    /** This pod's data grid member, once started. */
    @Nullable GridMember member() {
        return member;
    }

    /** This pod's {@code datagrid} section, once started. */
    @Nullable DatagridSection datagrid() {
        return datagrid;
    }

    static @Nullable Integer expectedMembers(Settings settings) {
        Integer expected = settings.find(GridSettings.EXPECTED_MEMBERS);
        if (expected != null) {
            return expected;
        }
        if (settings.find(GridSettings.KUBERNETES_SERVICE_DNS) != null) {
            return null;
        }
        List<String> members = settings.find(GridSettings.MEMBERS);
        return members == null || members.isEmpty() ? null : members.size();
    }
}
