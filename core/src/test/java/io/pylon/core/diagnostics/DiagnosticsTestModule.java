package io.pylon.core.diagnostics;

import io.pylon.core.server.ModuleContext;
import io.pylon.core.server.PylonModule;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/** A module that serves diagnostics, as Worker and Cache do, with whatever sections a test adds. */
final class DiagnosticsTestModule implements PylonModule {
    private final List<Consumer<ModuleContext>> startActions = new ArrayList<>();

    DiagnosticsTestModule onStart(Consumer<ModuleContext> action) {
        startActions.add(action);
        return this;
    }

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
        startActions.forEach(action -> action.accept(context));
    }
}
