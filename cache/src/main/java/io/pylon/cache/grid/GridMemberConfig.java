package io.pylon.cache.grid;

import com.hazelcast.config.Config;
import com.hazelcast.config.EvictionConfig;
import com.hazelcast.config.EvictionPolicy;
import com.hazelcast.config.InMemoryFormat;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.MapConfig;
import com.hazelcast.config.MaxSizePolicy;
import com.hazelcast.config.NetworkConfig;
import io.pylon.cache.client.GridClusterName;
import io.pylon.cache.client.GridLogging;
import io.pylon.cache.client.GridMaps;
import io.pylon.cache.client.GridSerialization;
import io.pylon.core.config.Settings;
import io.pylon.core.pod.CoreSettings;
import io.pylon.core.pod.PodIdentity;

import java.util.List;

/**
 * The Hazelcast member configuration of a Cache pod: bound to the pod's own address only (several members run on
 * 127.0.0.x), joined by Kubernetes DNS discovery or a TCP-IP member list, never multicast, no phone-home, quiet JUL
 * logging, and the platform's maps with backups, TTL and eviction.
 */
public final class GridMemberConfig {
    /** Members of a just-started cluster do not wait the default 5 s for late joiners. */
    static final String JOIN_WAIT_SECONDS = "1";

    private GridMemberConfig() {
    }

    public static Config build(Settings settings, PodIdentity identity, GridClusterName name) {
        Config config = new Config();
        config.setClusterName(name.secret());
        config.setInstanceName("pylon-grid-" + identity.podName());
        GridLogging.level(settings.get(GridSettings.LOG_LEVEL).jul());
        GridLogging.apply(name, config::setProperty);
        config.setProperty("hazelcast.socket.bind.any", "false");
        // the pod stops the member itself, gracefully, after its HTTP server stopped
        config.setProperty("hazelcast.shutdownhook.enabled", "false");
        config.setProperty("hazelcast.wait.seconds.before.join", JOIN_WAIT_SECONDS);
        config.setProperty("hazelcast.max.wait.seconds.before.join", "5");
        config.setProperty("hazelcast.health.monitoring.level", "OFF");
        // heal a split brain within a minute instead of the default five
        config.setProperty("hazelcast.merge.first.run.delay.seconds", "30");
        config.setProperty("hazelcast.merge.next.run.delay.seconds", "30");
        config.getJetConfig().setEnabled(false);
        config.getMetricsConfig().setEnabled(false);
        GridSerialization.register(config.getSerializationConfig());

        // the pod's own address, whether or not it is a configured interface address (127.0.0.x locally)
        config.setProperty("hazelcast.local.localAddress", identity.podIp());
        network(config.getNetworkConfig(), settings, identity.podIp());
        maps(config, settings);
        return config;
    }

    private static void network(NetworkConfig network, Settings settings, String address) {
        int port = settings.get(GridSettings.PORT);
        network.setPort(port).setPortAutoIncrement(false);
        network.getRestApiConfig().setEnabled(false);
        JoinConfig join = network.getJoin();
        join.getMulticastConfig().setEnabled(false);
        join.getAutoDetectionConfig().setEnabled(false);
        String serviceDns = settings.find(GridSettings.KUBERNETES_SERVICE_DNS);
        if (serviceDns != null) {
            join.getKubernetesConfig().setEnabled(true)
                    .setProperty("service-dns", serviceDns)
                    .setProperty("service-port", String.valueOf(port));
            return;
        }
        List<String> members = settings.find(GridSettings.MEMBERS);
        join.getTcpIpConfig().setEnabled(true).setConnectionTimeoutSeconds(2)
                .setMembers(members == null || members.isEmpty() ? List.of(address + ":" + port) : members);
    }

    private static void maps(Config config, Settings settings) {
        int backups = settings.get(GridSettings.BACKUP_COUNT);
        config.getMapConfig("default").setBackupCount(backups)
                .setEvictionConfig(new EvictionConfig().setEvictionPolicy(EvictionPolicy.LRU)
                        .setMaxSizePolicy(MaxSizePolicy.PER_NODE).setSize(1_000_000));
        config.addMapConfig(new MapConfig(GridMaps.COUNTERS)
                .setBackupCount(backups)
                .setInMemoryFormat(InMemoryFormat.BINARY)
                .setEvictionConfig(new EvictionConfig().setEvictionPolicy(EvictionPolicy.LRU)
                        .setMaxSizePolicy(MaxSizePolicy.PER_NODE).setSize(settings.get(GridSettings.COUNTERS_MAX_ENTRIES))));
        config.addMapConfig(new MapConfig(GridMaps.RESPONSES)
                .setBackupCount(backups)
                .setInMemoryFormat(InMemoryFormat.BINARY)
                .setTimeToLiveSeconds(Math.toIntExact(Math.max(1, settings.get(GridSettings.RESPONSES_MAX_TTL).toSeconds())))
                .setEvictionConfig(new EvictionConfig().setEvictionPolicy(EvictionPolicy.LRU)
                        .setMaxSizePolicy(MaxSizePolicy.USED_HEAP_SIZE).setSize(settings.get(GridSettings.RESPONSES_MAX_MB))));
        // one entry per environment, the copy new Workers start from while the Manager is away: never evicted
        config.addMapConfig(new MapConfig(GridMaps.GATEWAY_BUNDLES)
                .setBackupCount(backups)
                .setInMemoryFormat(InMemoryFormat.BINARY)
                .setEvictionConfig(new EvictionConfig().setEvictionPolicy(EvictionPolicy.NONE)
                        .setMaxSizePolicy(MaxSizePolicy.PER_NODE)));
    }
}
