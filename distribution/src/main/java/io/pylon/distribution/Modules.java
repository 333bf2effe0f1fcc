package io.pylon.distribution;

import io.pylon.core.server.PylonModule;
import org.jspecify.annotations.Nullable;

import java.util.Comparator;
import java.util.List;
import java.util.ServiceLoader;

/** The platform modules on the class path. */
final class Modules {
    private Modules() {
    }

    static List<PylonModule> all() {
        return ServiceLoader.load(PylonModule.class).stream()
                .map(ServiceLoader.Provider::get)
                .sorted(Comparator.comparing(PylonModule::name))
                .toList();
    }

    static PylonModule named(@Nullable String name) {
        return all().stream().filter(m -> m.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("Unknown module '" + name + "'. Modules: "
                        + String.join(", ", all().stream().map(PylonModule::name).toList())));
    }
}
