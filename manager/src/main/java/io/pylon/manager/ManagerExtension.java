package io.pylon.manager;

import io.pylon.core.server.ModuleContext;

/**
 * More routes on the Manager built on the management API (the Manager UI). Found with {@link java.util.ServiceLoader}
 * (a {@code META-INF/services/io.pylon.manager.ManagerExtension} file) and started after the API's own routes.
 */
public interface ManagerExtension {

    void start(ModuleContext context, ManagementApi api) throws Exception;
}
