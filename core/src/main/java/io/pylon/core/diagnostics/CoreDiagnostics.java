package io.pylon.core.diagnostics;

import io.pylon.core.config.Setting;
import io.pylon.core.config.Settings;
import io.pylon.core.health.HealthRegistry;
import io.pylon.core.pod.CoreSettings;
import io.pylon.core.pod.PodExecutors;
import io.pylon.core.pod.PodIdentity;
import io.pylon.core.storage.DataBudget;
import io.pylon.core.storage.StorageSettings;

import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * Registers the sections every diagnostics module shares (jvm, threads, threaddump, env, health, hotthreads,
 * histogram, loggers, jfr) and the heap dump.
 */
public final class CoreDiagnostics {
    private static final int HEAVY_RETRY_AFTER_SECONDS = 2;

    private CoreDiagnostics() {
    }

    /** What a pod answers diagnostics with: its sections and its heap dumps. */
    public record PodDiagnostics(LocalDiagnostics local, HeapDumper heapDumper, AutoCloseable logLevels,
                                 FlightRecordings recordings) {
    }

    /**
     * Prepares the dump directory (removing a crash's leftovers), registers the shared sections in {@code registry}
     * before the module adds its own, and returns the pod's local diagnostics and heap dumper.
     *
     * @param settings every setting the module reads, so that the values of secret ones are masked in {@code env}
     */
    public static PodDiagnostics install(Settings values, PodIdentity identity, Path dataDir, DataBudget budget,
                                         PodExecutors executors,
                                         HealthRegistry health, DiagnosticsRegistry registry, List<Setting<?>> settings) {
        Path dir = values.find(DiagnosticsSettings.DUMP_DIR);
        DumpDirectory dumps = new DumpDirectory(dir != null ? dir : dataDir.resolve("dumps"));
        dumps.removeLeftovers();

        List<String> secretKeys = new ArrayList<>();
        for (Setting<?> setting : settings) {
            if (setting.isSecret()) {
                secretKeys.add(setting.key());
                secretKeys.add(setting.envName());
            }
        }
        SecretMasker masker = new SecretMasker(values.find(CoreSettings.ENVIRONMENT_ID),
                values.get(DiagnosticsSettings.MASK_KEYS), secretKeys);

        registry.register(new JvmSection());
        registry.register(new ThreadsSection(executors));
        registry.register(new ThreadDumpSection(new VirtualThreadDump(dumps.path(), budget), masker));
        registry.register(new EnvSection(masker, new EnvDigest(values.find(CoreSettings.ENVIRONMENT_ID)), System::getenv));
        registry.register(new HealthSection(health, dumps));
        registry.register(new HotThreadsSection());
        registry.register(new HistogramSection(values.get(DiagnosticsSettings.HISTOGRAM_FLAG_FACTOR)));
        LogLevelOverrides logLevels = new LogLevelOverrides(executors.maintenance(), Clock.systemUTC(),
                values.get(DiagnosticsSettings.LOGGERS_MAX_OVERRIDES));
        registry.register(new LoggersSection(logLevels));
        FlightRecordings recordings = new FlightRecordings(dataDir.resolve("recordings"),
                values.get(DiagnosticsSettings.JFR_RETENTION), executors.maintenance(), Clock.systemUTC(), budget,
                values.get(StorageSettings.RECORDINGS_MAX_COUNT), values.get(StorageSettings.RECORDINGS_MAX_BYTES));
        registry.register(new JfrSection(recordings));
        ConcurrencyLimit heavy = new ConcurrencyLimit(values.get(DiagnosticsSettings.HEAVY_CONCURRENCY),
                "thread dumps or 'all' answers", HEAVY_RETRY_AFTER_SECONDS);
        HeavyCallRate rate = new HeavyCallRate(values.get(DiagnosticsSettings.HEAVY_RATE_PER_POD),
                values.get(DiagnosticsSettings.HEAVY_RATE_PER_CALLER), System::nanoTime);
        return new PodDiagnostics(new LocalDiagnostics(identity, registry, heavy, rate), new HeapDumper(identity, dumps,
                values.get(DiagnosticsSettings.HEAP_DUMP_STALL_TIMEOUT), budget), logLevels, recordings);
    }
}
