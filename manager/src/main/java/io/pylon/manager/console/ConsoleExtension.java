package io.pylon.manager.console;

import io.pylon.core.server.ModuleContext;
import io.pylon.manager.ManagementApi;
import io.pylon.manager.ManagerExtension;

/** Adds the Server Management screen to the Manager: the console's diagnostics API and the web UI at {@code /}. */
public final class ConsoleExtension implements ManagerExtension {

    @Override
    public void start(ModuleContext context, ManagementApi api) {
        new ConsoleApi(api.auth(), api.environments(), api.audit(), context.segment(), ConsoleTimeouts.defaults())
                .register(context.routes());
        new WebUi().register(context.routes());
    }
}
