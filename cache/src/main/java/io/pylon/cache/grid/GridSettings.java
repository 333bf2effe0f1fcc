package io.pylon.cache.grid;

import io.pylon.core.config.Setting;
import io.pylon.core.config.SettingType;

import java.util.List;

/** Settings of a Cache pod's data grid member. */
public final class GridSettings {
    private GridSettings() {
    }

    public static final Setting<Integer> PORT = Setting.of("pylon.grid.port",
            "Port of the data grid member (Hazelcast) on the pod's own address; Worker clients connect to it.",
            5701, SettingType.intRange(1, 65535));

    public static final Setting<List<String>> MEMBERS = Setting.of("pylon.grid.members",
            "Local discovery: the data grid members to join (host:port,...), this pod's own address may be among them. "
                    + "Ignored when pylon.grid.kubernetes.service-dns is set. Unset: a cluster of this pod alone.",
            null, SettingType.LIST);

    public static final Setting<String> KUBERNETES_SERVICE_DNS = Setting.of("pylon.grid.kubernetes.service-dns",
            "Kubernetes discovery: DNS name of the Cache headless Service (pylon-cache-headless.<namespace>.svc.cluster.local); "
                    + "members find each other through its DNS records, no RBAC needed. When set it wins over pylon.grid.members.",
            null, SettingType.NON_EMPTY);

    public static final Setting<Integer> EXPECTED_MEMBERS = Setting.of("pylon.grid.expected-members",
            "Cluster size the datagrid health check compares the member count with (reported, not a readiness condition). "
                    + "Default: the number of entries in pylon.grid.members, else not compared.",
            null, SettingType.intRange(1, 1000));

    public static final Setting<Integer> BACKUP_COUNT = Setting.of("pylon.grid.backup-count",
            "Synchronous backups of every platform map entry on other members (1 survives the loss of any one member).",
            1, SettingType.intRange(0, 6));

    public static final Setting<Integer> COUNTERS_MAX_ENTRIES = Setting.of("pylon.grid.counters.max-entries",
            "Most rate-limit counters a member keeps before evicting the least recently used ones.",
            1_000_000, SettingType.intRange(1_000, Integer.MAX_VALUE));

    public static final Setting<Integer> RESPONSES_MAX_MB = Setting.of("pylon.grid.responses.max-mb",
            "Most heap (MiB) cached responses may take on a member before the least recently used are evicted.",
            128, SettingType.intRange(1, 1_000_000));

    public static final Setting<java.time.Duration> RESPONSES_MAX_TTL = Setting.of("pylon.grid.responses.max-ttl",
            "Time to live of a cached response put without its own TTL.", java.time.Duration.ofMinutes(5),
            SettingType.DURATION_TYPE);

    public static final Setting<LogLevel> LOG_LEVEL = Setting.of("pylon.grid.log-level",
            "Level of the data grid's (Hazelcast's) own log lines; raise it to info or fine while troubleshooting joins.",
            LogLevel.WARNING, SettingType.oneOf(LogLevel.class));

    /** The JUL levels an operator may pick for Hazelcast. */
    public enum LogLevel {
        SEVERE, WARNING, INFO, FINE, FINEST;

        public java.util.logging.Level jul() {
            return java.util.logging.Level.parse(name());
        }
    }

    public static List<Setting<?>> all() {
        return List.of(PORT, MEMBERS, KUBERNETES_SERVICE_DNS, EXPECTED_MEMBERS, BACKUP_COUNT, COUNTERS_MAX_ENTRIES,
                RESPONSES_MAX_MB, RESPONSES_MAX_TTL, LOG_LEVEL);
    }
}
