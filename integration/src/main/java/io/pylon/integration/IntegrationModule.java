package io.pylon.integration;

import io.pylon.core.server.ModuleContext;
import io.pylon.core.server.PylonModule;

/** The Integration module. */
public final class IntegrationModule implements PylonModule {
    public static final String NAME = "integration";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String displayName() {
        return "Integration";
    }

    @Override
    public int defaultPort() {
        return 8092;
    }

    @Override
    public void start(ModuleContext context) {
        // health, version and shutdown come from the core
    }
}
