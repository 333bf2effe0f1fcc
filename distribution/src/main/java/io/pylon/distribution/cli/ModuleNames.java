package io.pylon.distribution.cli;

import org.jspecify.annotations.Nullable;

import java.util.List;

/** Which modules a command may name: all five for health and version, Worker and Cache for diagnostics. */
public final class ModuleNames {
    public static final List<String> ALL = List.of("manager", "worker", "cache", "integration", "portal");

    private ModuleNames() {
    }

    /** Both diagnosable modules, or the one named; any other name is a usage error. */
    public static List<String> diagnosable(@Nullable String module) {
        if (module == null) {
            return Fleet.MODULES;
        }
        if (!Fleet.MODULES.contains(module)) {
            throw CliException.usage("Pods with diagnostics are those of worker and cache, not '" + Text.printable(module)
                    + "' (`pylon health` checks every module).");
        }
        return List.of(module);
    }

    public static List<String> any(@Nullable String module) {
        if (module == null) {
            return ALL;
        }
        if (!ALL.contains(module)) {
            throw CliException.usage("ModuleNames are " + String.join(", ", ALL) + ", not '" + Text.printable(module) + "'.");
        }
        return List.of(module);
    }
}
