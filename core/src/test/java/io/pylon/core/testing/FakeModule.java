package io.pylon.core.testing;

import io.pylon.core.health.HealthCheck;
import io.pylon.core.server.ModuleContext;
import io.pylon.core.server.PylonModule;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/** A module for core tests: a name, a port, and whatever checks or routes a test gives it. */
public final class FakeModule implements PylonModule {
    private final String name;
    private final List<HealthCheck> checks = new ArrayList<>();
    private final List<Consumer<ModuleContext>> startActions = new ArrayList<>();
    private final List<io.pylon.core.config.Setting<?>> settings = new ArrayList<>();
    private boolean diagnostics;
    private boolean chunked;

    public FakeModule(String name) {
        this.name = name;
    }

    public FakeModule withCheck(HealthCheck check) {
        checks.add(check);
        return this;
    }

    public FakeModule onStart(Consumer<ModuleContext> action) {
        startActions.add(action);
        return this;
    }

    /** Serves /<segment>/diagnostics/<name>, as Worker and Cache do. */
    public FakeModule servingDiagnostics() {
        diagnostics = true;
        return this;
    }

    /** Takes chunked request bodies outside /<segment>/, as the Worker's gateway does. */
    public FakeModule acceptingChunkedRequests() {
        chunked = true;
        return this;
    }

    @Override
    public boolean acceptsChunkedRequests() {
        return chunked;
    }

    public FakeModule withSetting(io.pylon.core.config.Setting<?> setting) {
        settings.add(setting);
        return this;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String displayName() {
        return Character.toUpperCase(name.charAt(0)) + name.substring(1);
    }

    @Override
    public int defaultPort() {
        return 0;
    }

    @Override
    public boolean servesDiagnostics() {
        return diagnostics;
    }

    @Override
    public List<io.pylon.core.config.Setting<?>> settings() {
        return settings;
    }

    @Override
    public void start(ModuleContext context) {
        checks.forEach(context.health()::register);
        startActions.forEach(a -> a.accept(context));
    }
}
