package io.pylon.portal;

import io.pylon.core.config.Setting;
import io.pylon.core.config.Settings;
import io.pylon.core.pod.CoreSettings;
import io.pylon.core.server.ModuleContext;
import io.pylon.core.server.PylonModule;
import io.pylon.gateway.model.TrustedProxies;

import java.util.List;

/**
 * The developer portal: a stateless front on the Manager. Developers browse the APIs published and deployed in the
 * Portal's environment, read their OpenAPI documents (Swagger UI), sign up and in, create applications, subscribe and
 * get API keys; every call is made to the Manager with the Portal's own {@code portal} credential.
 */
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
    public List<Setting<?>> settings() {
        return PortalSettings.all();
    }

    @Override
    public void start(ModuleContext context) {
        Settings settings = context.settings();
        String environment = settings.find(PortalSettings.ENVIRONMENT);
        if (environment == null) {
            environment = settings.get(CoreSettings.ENVIRONMENT_NAME);
        }
        ConnectSources connect = new ConnectSources();
        PortalPages.headers(context.routes().routing(), connect);
        PortalApi.install(context.routes().routing());
        java.net.URI managerUrl = settings.find(PortalSettings.MANAGER_URL);
        if (managerUrl != null) {
            ManagerLink manager = new ManagerLink(managerUrl, settings.get(PortalSettings.MANAGER_USERNAME),
                    settings.find(PortalSettings.MANAGER_PASSWORD));
            TrustedProxies trusted = settings.find(PortalSettings.TRUSTED_PROXIES);
            PortalApi api = new PortalApi(manager, environment, connect,
                    trusted == null ? TrustedProxies.NONE : trusted);
            api.register(context.routes());
            new PortalPages(api::refreshConnectSources, connect).register(context.routes());
        } else {
            new PortalPages(() -> { }, connect).register(context.routes());
        }
    }
}
