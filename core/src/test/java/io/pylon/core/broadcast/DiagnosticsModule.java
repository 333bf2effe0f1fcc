package io.pylon.core.broadcast;

import io.pylon.core.server.ModuleContext;
import io.pylon.core.server.PylonModule;

/** A module that serves diagnostics, like Worker and Cache, for broadcast tests. */
final class DiagnosticsModule implements PylonModule {
    @Override
    public String name() {
        return "worker";
    }

    @Override
    public String displayName() {
        return "Worker";
    }

    @Override
    public int defaultPort() {
        return 0;
    }

    @Override
    public boolean servesDiagnostics() {
        return true;
    }

    @Override
    public void start(ModuleContext context) {
    }
}
