package io.pylon.core.diagnostics.postmortem;

import org.jspecify.annotations.Nullable;

import io.pylon.core.storage.DataBudget;
import io.pylon.core.config.Settings;
import io.pylon.core.diagnostics.DiagnosticsRegistry;
import io.pylon.core.diagnostics.LocalDiagnostics;
import io.pylon.core.health.HealthRegistry;
import io.pylon.core.health.MemoryCheck;
import io.pylon.core.pod.CoreSettings;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Installs the black box on a Worker or Cache pod: the store in {@code <data dir>/postmortem}, the {@code postmortem}
 * section, and the triggers (periodic checks on the maintenance executor, 429 counting, SIGTERM, OutOfMemoryError).
 * Closing it stops the triggers; the captures stay on disk for the next start.
 */
public final class Postmortem implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(Postmortem.class.getName());
    public static final String FOLDER = "postmortem";
    /** What {@code -XX:OnOutOfMemoryError="touch <data dir>/postmortem/oom-%p"} leaves behind (see the Dockerfile). */
    private static final Pattern OOM_MARKER = Pattern.compile("oom-([0-9]{1,10})");

    private final BlackBox blackBox;
    private final List<AutoCloseable> hooks = new ArrayList<>();

    private Postmortem(BlackBox blackBox) {
        this.blackBox = blackBox;
    }

    public BlackBox blackBox() {
        return blackBox;
    }

    /** The black box of a pod, or null when {@code pylon.diagnostics.postmortem.enabled} is false. */
    public static @Nullable Postmortem install(Settings settings, Path dataDir, DataBudget budget, LocalDiagnostics local,
                                     DiagnosticsRegistry registry,
                                     HealthRegistry health, ScheduledExecutorService maintenance) {
        if (!settings.get(PostmortemSettings.ENABLED)) {
            return null;
        }
        CaptureStore store = new CaptureStore(dataDir.resolve(FOLDER), settings.get(PostmortemSettings.MAX_COUNT),
                settings.get(PostmortemSettings.MAX_BYTES), budget);
        BlackBox blackBox = new BlackBox(new CaptureWriter(local, settings.get(PostmortemSettings.MAX_BYTES)), store,
                settings.get(PostmortemSettings.MIN_INTERVAL), Clock.systemUTC());
        Map<String, Object> limits = new LinkedHashMap<>();
        limits.put("maxCount", settings.get(PostmortemSettings.MAX_COUNT));
        limits.put("maxBytes", settings.get(PostmortemSettings.MAX_BYTES));
        limits.put("minIntervalSeconds", settings.get(PostmortemSettings.MIN_INTERVAL).toSeconds());
        registry.register(new PostmortemSection(blackBox, limits));

        Postmortem postmortem = new Postmortem(blackBox);
        postmortem.noteEarlierOutOfMemory(store.dir());
        PeriodicTriggers periodic = new PeriodicTriggers(blackBox, health,
                new MemoryCheck(settings.get(CoreSettings.HEAP_THRESHOLD)));
        long every = settings.get(PostmortemSettings.CHECK_INTERVAL).toMillis();
        ScheduledFuture<?> task = maintenance.scheduleWithFixedDelay(periodic, every, every, TimeUnit.MILLISECONDS);
        postmortem.hooks.add(() -> task.cancel(false));
        local.onHeavyRefused(new HeavyRefusals(blackBox, maintenance, settings.get(PostmortemSettings.BUSY_REFUSALS),
                settings.get(PostmortemSettings.BUSY_WINDOW)));
        postmortem.hooks.add(JvmHooks.onSigterm(() -> blackBox.capture(List.of(
                new BlackBox.Firing(Trigger.SIGTERM, "SIGTERM received: the pod is being stopped")))));
        postmortem.hooks.add(JvmHooks.onOutOfMemory(() -> blackBox.capture(List.of(
                new BlackBox.Firing(Trigger.OUT_OF_MEMORY, "a thread ended with OutOfMemoryError")))));
        return postmortem;
    }

    // The image runs with -XX:+ExitOnOutOfMemoryError, which ends the JVM before any Java code can run; its
    // -XX:OnOutOfMemoryError command leaves a marker, turned into a capture of the trigger and time at the next start.
    private void noteEarlierOutOfMemory(Path dir) {
        try (DirectoryStream<Path> markers = Files.newDirectoryStream(dir, "oom-*")) {
            for (Path marker : markers) {
                Matcher m = OOM_MARKER.matcher(marker.getFileName().toString());
                if (m.matches()) {
                    blackBox.note(new BlackBox.Firing(Trigger.OUT_OF_MEMORY, "the previous process (pid " + m.group(1)
                            + ") ended with OutOfMemoryError; noted at the next start, without its threads or heap"),
                            Files.getLastModifiedTime(marker).toInstant());
                }
                Files.deleteIfExists(marker);
            }
        } catch (IOException e) {
            LOG.log(Level.WARNING, "Cannot read the OutOfMemoryError markers: " + e.getClass().getSimpleName());
        }
    }

    @Override
    public void close() {
        for (AutoCloseable hook : hooks) {
            try {
                hook.close();
            } catch (Exception e) {
                // stopping: nothing more to do
            }
        }
    }
}
