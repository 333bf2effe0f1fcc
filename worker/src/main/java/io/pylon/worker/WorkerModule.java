package io.pylon.worker;

import io.pylon.core.server.ModuleContext;
import io.pylon.core.server.PylonModule;

/** The Worker: the API gateway data plane, with diagnostics of its pods. */
public final class WorkerModule implements PylonModule {
    public static final String NAME = "worker";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String displayName() {
        return "Worker";
    }

    @Override
    public int defaultPort() {
        return 8091;
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
