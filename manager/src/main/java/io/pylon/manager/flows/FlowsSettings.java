package io.pylon.manager.flows;

import io.pylon.core.config.Setting;
import io.pylon.core.config.SettingType;

import java.net.URI;
import java.util.List;

/** Where the Manager reaches the Integration pods for /apiops/flows. */
public final class FlowsSettings {
    private FlowsSettings() {
    }

    public static final Setting<URI> INTEGRATION_URL = Setting.of("pylon.manager.integration-url",
            "The Integration service that /apiops/flows forwards to (in Kubernetes its Service, e.g. "
                    + "http://pylon-integration:8092; ./pylon up sets the local pod's).",
            URI.create("http://127.0.0.1:8092"), SettingType.HTTP_URL);

    public static List<Setting<?>> all() {
        return List.of(INTEGRATION_URL);
    }
}
