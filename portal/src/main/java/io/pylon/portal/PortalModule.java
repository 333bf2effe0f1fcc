package io.pylon.portal;

import io.pylon.core.server.ModuleContext;
import io.pylon.core.server.PylonModule;

/** The Portal module. */
public final class PortalModule implements PylonModule {
    public static final String NAME = "portal";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String displayName() {
        return "Portal";
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
