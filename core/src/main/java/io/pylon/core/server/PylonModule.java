package io.pylon.core.server;

import io.pylon.core.config.Setting;

import java.util.List;

/**
 * A platform module (Manager, Worker, Cache, Integration, Portal). The core runs the server, health, version and
 * shutdown; a module adds its own routes, checks and resources in {@link #start(ModuleContext)}. Modules are found
 * with {@link java.util.ServiceLoader}.
 */
public interface PylonModule {

    /** Lower-case name used in paths, settings and pod names: {@code worker}. */
    String name();

    /** Name for people: {@code Worker}. */
    String displayName();

    /** The internal port from the interface's table. */
    int defaultPort();

    /** The module's own settings, for validation at start-up and the README table. */
    default List<Setting<?>> settings() {
        return List.of();
    }

    /** Whether pods of this module serve {@code /<segment>/diagnostics/<name>} (Worker, Cache and Integration do). */
    default boolean servesDiagnostics() {
        return false;
    }

    /**
     * Whether the module's own routes (outside {@code /<segment>/}) take chunked request bodies, as the Worker's
     * gateway routes do. Elsewhere a request with {@code Transfer-Encoding} is refused with 411.
     */
    default boolean acceptsChunkedRequests() {
        return false;
    }

    /**
     * Adds the module's routes, health checks and resources. Runs before the server accepts connections; a failure
     * stops start-up.
     */
    void start(ModuleContext context) throws Exception;
}
