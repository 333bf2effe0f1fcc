package io.pylon.cache;

import io.pylon.core.server.ModuleContext;
import io.pylon.core.server.PylonModule;

/** The Cache: the platform's data grid (Hazelcast), with diagnostics of its pods. */
public final class CacheModule implements PylonModule {
    public static final String NAME = "cache";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String displayName() {
        return "Cache";
    }

    @Override
    public int defaultPort() {
        return 8090;
    }

    @Override
    public boolean servesDiagnostics() {
        return true;
    }

    @Override
    public void start(ModuleContext context) {
        // health, version and shutdown come from the core
    }
}
