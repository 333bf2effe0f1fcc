package io.pylon.cache.grid;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.LocalMapStats;
import com.hazelcast.partition.Partition;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.pylon.cache.client.GridMaps;
import io.pylon.core.metrics.PodMetrics;
import org.jspecify.annotations.Nullable;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

/**
 * The data grid member as meters, read from Hazelcast at scrape time: {@code pylon_grid_members},
 * {@code pylon_grid_partitions_owned}, {@code pylon_grid_cluster_safe} (1 safe, 0 not, NaN unknown; the latest
 * background check of {@link ClusterSafety}), and per platform map ({@code map} is one of {@link GridMaps}, fixed
 * names): {@code pylon_grid_map_entries}, {@code pylon_grid_map_memory_bytes} (owned entries on this member) and the
 * {@code pylon_grid_map_get_seconds} / {@code pylon_grid_map_put_seconds} totals and counts.
 */
public final class GridMeters {
    private static final List<String> MAPS = List.of(GridMaps.COUNTERS, GridMaps.RESPONSES);

    private GridMeters() {
    }

    public static void bind(GridMember member, ClusterSafety safety, PodMetrics metrics) {
        if (!metrics.enabled()) {
            return;
        }
        MeterRegistry registry = metrics.registry();
        HazelcastInstance hz = member.instance();
        Gauge.builder("pylon.grid.members", member, m -> m.isRunning() ? hz.getCluster().getMembers().size() : 0)
                .description("Members of the data grid cluster as this member sees it")
                .register(registry);
        Gauge.builder("pylon.grid.partitions.owned", member, GridMeters::ownedPartitions)
                .description("Partitions whose primary copy this member owns").register(registry);
        Gauge.builder("pylon.grid.cluster.safe", safety, GridMeters::safe)
                .description("1 when no partition is migrating and every backup is in sync, 0 when not, NaN unknown")
                .register(registry);
        for (String name : MAPS) {
            mapGauge(registry, member, name, "pylon.grid.map.entries", null, LocalMapStats::getOwnedEntryCount,
                    "Entries of the platform map owned by this member");
            mapGauge(registry, member, name, "pylon.grid.map.memory", "bytes", LocalMapStats::getOwnedEntryMemoryCost,
                    "Heap taken by the platform map's entries owned by this member");
            mapTimer(registry, member, name, "pylon.grid.map.get", LocalMapStats::getGetOperationCount,
                    LocalMapStats::getTotalGetLatency, "Get operations on this member and their total latency");
            mapTimer(registry, member, name, "pylon.grid.map.put", LocalMapStats::getPutOperationCount,
                    LocalMapStats::getTotalPutLatency, "Put operations on this member and their total latency");
        }
    }

    private static void mapGauge(MeterRegistry registry, GridMember member, String map, String meter, @Nullable String unit,
                                 ToLongFunction<LocalMapStats> value, String description) {
        // a null unit: a count, whose name already says what it counts
        Gauge.builder(meter, member, m -> stat(m, map, value)).baseUnit(unit).tag("map", map).description(description)
                .register(registry);
    }

    private static void mapTimer(MeterRegistry registry, GridMember member, String map, String meter,
                                 ToLongFunction<LocalMapStats> count, ToLongFunction<LocalMapStats> totalMillis,
                                 String description) {
        ToLongFunction<GridMember> counted = m -> (long) stat(m, map, count);
        ToDoubleFunction<GridMember> total = m -> stat(m, map, totalMillis);
        FunctionTimer.builder(meter, member, counted, total, TimeUnit.MILLISECONDS).tag("map", map)
                .description(description).register(registry);
    }

    private static double stat(GridMember member, String map, ToLongFunction<LocalMapStats> value) {
        if (!member.isRunning()) {
            return Double.NaN;
        }
        return value.applyAsLong(member.instance().getMap(map).getLocalMapStats());
    }

    private static double ownedPartitions(GridMember member) {
        if (!member.isRunning()) {
            return Double.NaN;
        }
        var local = member.instance().getCluster().getLocalMember();
        int owned = 0;
        for (Partition partition : member.instance().getPartitionService().getPartitions()) {
            if (local.equals(partition.getOwner())) {
                owned++;
            }
        }
        return owned;
    }

    private static double safe(ClusterSafety safety) {
        Object safe = safety.latest().get("clusterSafe");
        return safe instanceof Boolean b ? (b ? 1 : 0) : Double.NaN;
    }
}
