package io.pylon.core.pod;

import io.pylon.core.config.Setting;
import io.pylon.core.config.SettingType;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/** Settings every module has. Module-specific settings live beside their module. */
public final class CoreSettings {
    private CoreSettings() {
    }

    public static final Setting<String> BIND = Setting.of("pylon.server.bind",
            "Address the HTTP server binds to.", "0.0.0.0", SettingType.BIND_ADDRESS);

    /** The port's default is the module's internal port from the interface's table. */
    public static Setting<Integer> port(int defaultPort) {
        return Setting.of("pylon.server.port", "HTTP port (0 picks a free one). Default: the module's internal port.",
                defaultPort, SettingType.PORT);
    }

    public static final Setting<String> PATH_SEGMENT = Setting.of("pylon.path.segment",
            "The product segment of every path: /<segment>/management/health, /<segment>/diagnostics/...",
            "platform", SettingType.PATH_SEGMENT);

    public static final Setting<String> POD_NAME = Setting.of("pylon.pod.name",
            "Pod name (Kubernetes: metadata.name via the downward API). Default: <module>-<host>-<port>.",
            null, SettingType.NON_EMPTY);

    public static final Setting<String> POD_IP = Setting.of("pylon.pod.ip",
            "Pod address (Kubernetes: status.podIP). Default: the bind address, or this host's address.",
            null, SettingType.NON_EMPTY);

    public static final Setting<String> POD_NAMESPACE = Setting.of("pylon.pod.namespace",
            "Kubernetes namespace of the pod (metadata.namespace). Unset outside Kubernetes.", null, SettingType.NON_EMPTY);

    public static final Setting<String> NODE_NAME = Setting.of("pylon.pod.node",
            "Kubernetes node of the pod (spec.nodeName). Unset outside Kubernetes.", null, SettingType.NON_EMPTY);

    public static final Setting<String> ENVIRONMENT_NAME = Setting.of("pylon.environment.name",
            "Name of the environment this pod belongs to.", "local", SettingType.NON_EMPTY);

    public static final Setting<String> ENVIRONMENT_ID = Setting.secret("pylon.environment.id",
            "The environment ID that diagnostics callers must send in Authorization (a Kubernetes Secret). "
                    + "Unset: every diagnostics call is refused.", null, SettingType.NON_EMPTY);

    public static final Setting<Path> DATA_DIR = Setting.of("pylon.data.dir",
            "Directory for the pod's files (database, heap dumps). Default: data/<pod name> under the working directory.",
            null, SettingType.PATH);

    public static final Setting<Duration> SHUTDOWN_GRACE = Setting.of("pylon.shutdown.grace",
            "On SIGTERM, how long in-flight requests may take to finish before the server stops.",
            Duration.ofSeconds(20), SettingType.DURATION_TYPE);

    public static final Setting<Duration> SHUTDOWN_DELAY = Setting.of("pylon.shutdown.delay",
            "On SIGTERM, how long readiness reports DOWN before the server stops accepting requests "
                    + "(lets load balancers take the pod out).", Duration.ZERO, SettingType.DURATION_TYPE);

    public static final Setting<Duration> HEALTH_CHECK_TIMEOUT = Setting.of("pylon.health.check-timeout",
            "How long one health check may take before it counts as DOWN.", Duration.ofSeconds(2), SettingType.DURATION_TYPE);

    public static final Setting<Duration> HEALTH_CACHE_TTL = Setting.of("pylon.health.cache-ttl",
            "How often every health check runs in the background; probes answer at once with the latest results, so "
                    + "a check that turns DOWN shows within this plus its run time (0: every call runs the checks).",
            Duration.ofMillis(500), SettingType.DURATION_TYPE);

    public static final Setting<Double> HEAP_THRESHOLD = Setting.of("pylon.health.heap-threshold",
            "Fraction of the maximum heap still in use after garbage collection above which memory is DOWN.",
            0.95, SettingType.fraction());

    /**
     * Read by the launcher (scripts/pod-jvm.sh for `pylon run`, PodHeap for `pylon up`) before the pod's JVM starts,
     * so only the environment variable counts; the pod validates it like every other setting.
     */
    public static final Setting<Long> HEAP_MAX = Setting.of("pylon.pod.heap-max",
            "Maximum heap of a pod that `pylon run` or `pylon up` starts (-Xmx; a quarter of it is the young generation). "
                    + "Only the environment variable counts: the launcher reads it before the JVM starts. Default: Manager "
                    + "192m, Cache 256m, Worker and Integration 128m, Portal 64m. The container image takes 70% of the "
                    + "container's memory limit instead (-XX:MaxRAMPercentage=70).",
            null, SettingType.HEAP_SIZE);

    /**
     * Read by the container image's entrypoint (deploy/kubernetes/image/pylon-entrypoint) before the pod's JVM starts,
     * so only the environment variable counts; the pod validates it like every other setting.
     */
    public static final Setting<Boolean> AOT_CACHE = Setting.of("pylon.pod.aot-cache",
            "Whether a pod of the container image starts from the AOT cache of its module trained when the image was "
                    + "built (JDK 25 and later); false: from the class-data-sharing archive its first run writes into "
                    + "the data directory. Only the environment variable counts: the image's entrypoint reads it before "
                    + "the JVM starts. `pylon run` and `pylon up` keep their own cache (docs/kubernetes.md, The image).",
            true, SettingType.BOOLEAN);

    public static final Setting<Integer> ASYNC_THREADS = Setting.of("pylon.executor.async-threads",
            "Threads of the <segment>-async executor (the module's asynchronous work). Default: 2 per processor, at least 4.",
            null, SettingType.intRange(1, 1024));

    public static int asyncThreads(io.pylon.core.config.Settings settings) {
        Integer configured = settings.find(ASYNC_THREADS);
        return configured != null ? configured : Math.max(4, Runtime.getRuntime().availableProcessors() * 2);
    }

    public static final Setting<Integer> ASYNC_QUEUE = Setting.of("pylon.executor.async-queue",
            "Queue length of the <segment>-async executor; work beyond it is rejected.", 1000, SettingType.intRange(1, 1_000_000));

    public static final Setting<Integer> MAINTENANCE_THREADS = Setting.of("pylon.executor.maintenance-threads",
            "Threads of the <segment>-maintenance executor (periodic jobs).", 2, SettingType.intRange(1, 64));

    public static final Setting<Long> PARENT_PID = Setting.of("pylon.parent.pid",
            "Set by ./pylon up: the pod exits when this process is gone.", null, SettingType.longRange(1, Long.MAX_VALUE));

    public static final Setting<Boolean> METRICS_ENABLED = Setting.of("pylon.metrics.enabled",
            "Whether the pod records meters and serves them at /<segment>/management/metrics (Prometheus text or "
                    + "OpenMetrics). false: nothing is recorded and the path answers 404.", true, SettingType.BOOLEAN);

    public static List<Setting<?>> all(int defaultPort) {
        return List.of(BIND, port(defaultPort), PATH_SEGMENT, POD_NAME, POD_IP, POD_NAMESPACE, NODE_NAME, ENVIRONMENT_NAME,
                ENVIRONMENT_ID, DATA_DIR, SHUTDOWN_GRACE, SHUTDOWN_DELAY, HEALTH_CHECK_TIMEOUT, HEALTH_CACHE_TTL,
                HEAP_THRESHOLD, HEAP_MAX, AOT_CACHE, ASYNC_THREADS, ASYNC_QUEUE, MAINTENANCE_THREADS, PARENT_PID, METRICS_ENABLED);
    }
}
