package io.pylon.manager;

import io.pylon.core.server.ModuleContext;
import io.pylon.core.server.PylonModule;

/** The Manager: management API (tokens, accounts, environments) and the System / Server Management screen. */
public final class ManagerModule implements PylonModule {
    public static final String NAME = "manager";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String displayName() {
        return "Manager";
    }

    @Override
    public int defaultPort() {
        return 8080;
    }

    @Override
    public void start(ModuleContext context) {
        // health, version and shutdown come from the core
    }
}
