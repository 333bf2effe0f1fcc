package io.pylon.manager.flows;

import io.pylon.core.config.Setting;
import io.pylon.core.config.SettingType;

import java.net.URI;
import java.util.List;

/** Where the Manager reaches the Integration pods for /apiops/flows. */
public final class FlowsSettings {
    private FlowsSettings() {
    }

    public static final Setting<List<URI>> INTEGRATION_URL = Setting.of("pylon.manager.integration-url",
            "The Integration service that /apiops/flows forwards to (in Kubernetes its Service, e.g. "
                    + "http://pylon-integration:8092); with several URLs, comma-separated, a call that cannot connect "
                    + "to one goes to the next (./pylon up sets its Integration pods').",
            List.of(URI.create("http://127.0.0.1:8092")), new SettingType<>("comma-separated http:// or https:// URLs",
                    s -> {
                        List<URI> urls = SettingType.LIST.parse(s).stream().map(SettingType.HTTP_URL::parse).toList();
                        if (urls.isEmpty()) {
                            throw new IllegalArgumentException(s);
                        }
                        return urls;
                    }));

    public static List<Setting<?>> all() {
        return List.of(INTEGRATION_URL);
    }
}
