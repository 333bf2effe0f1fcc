package io.pylon.core.server;

import io.pylon.core.config.Settings;
import io.pylon.core.diagnostics.DiagnosticsRegistry;
import io.pylon.core.health.HealthRegistry;
import io.pylon.core.http.ClientDepartures;
import io.pylon.core.http.Refusals;
import io.pylon.core.http.Routes;
import io.pylon.core.metrics.PodMetrics;
import io.pylon.core.pod.PeriodicJob;
import io.pylon.core.pod.PodExecutors;
import io.pylon.core.pod.PodIdentity;
import io.pylon.core.storage.DataBudget;
import io.pylon.core.version.BuildInfo;

import java.nio.file.Path;
import java.time.Duration;

/** What the core hands a module while it starts. */
public interface ModuleContext {

    Settings settings();

    PodIdentity identity();

    /** The path segment, {@code platform} by default. */
    String segment();

    /** The pod's own directory for files; exists. */
    Path dataDir();

    /**
     * The budget of the data directory: reserve from it before writing a file there ({@code kind(...)} once, then
     * {@code reserve} per file), so that every file the pod keeps counts against {@code pylon.data.budget}.
     */
    DataBudget dataBudget();

    Routes routes();

    HealthRegistry health();

    PodExecutors executors();

    /** The pod's diagnostic sections; Worker and Cache serve them at /<segment>/diagnostics/<name>. */
    DiagnosticsRegistry diagnostics();

    /** The pod's meters: modules register theirs on {@code metrics().registry()} (no-ops when metrics are off). */
    PodMetrics metrics();

    /** What the module adds to its listener (upgrades, HTTP/2, TLS); read when the server is built after start. */
    ListenerProtocols listener();

    /** Where a handler learns that its request's client left (see {@link ClientDepartures}). */
    ClientDepartures clientDepartures();

    /**
     * The requests the pod refuses before any route takes them: the module may observe them (the Worker's access log)
     * and give their answers an identifier.
     */
    Refusals refusals();

    /** The build facts of this module. */
    BuildInfo buildInfo();

    /** Closed when the pod stops, after the server stopped accepting requests, in reverse order of registration. */
    void onStop(AutoCloseable resource);

    /**
     * Runs {@code job} on the maintenance executor every {@code period} after {@code initialDelay}, until the pod's
     * stop reaches it: it stops as a resource registered now ({@link #onStop}), so before the resources registered
     * earlier (the database or grid client it works on) close, and waits for a run in progress. {@code name} says
     * what it does in the log line of a failed run ("Refreshing the key set").
     */
    default void every(String name, Duration initialDelay, Duration period, Runnable job) {
        onStop(PeriodicJob.schedule(executors().maintenance(), name, initialDelay, period, job));
    }

    /**
     * Run when the pod starts stopping (readiness DOWN), before it waits for its requests to finish: where a module
     * ends requests that would otherwise hold the stop, such as parked long-polls.
     */
    void onStopping(Runnable action);

    /**
     * The port the server listens on. While the module starts the server has not bound yet, so this is the
     * configured port; once it has bound, the bound one (they differ when port 0 was configured).
     */
    int port();
}
