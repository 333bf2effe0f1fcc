package io.pylon.manager.environments;

import io.pylon.core.config.InvalidSettingException;
import io.pylon.manager.api.ApiException;
import io.pylon.manager.audit.AuditLog;
import org.jspecify.annotations.Nullable;

import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Creates the pod's own environment at start-up when asked to (what {@code ./pylon up} does): name and ID from the
 * core settings, URLs from {@code module=url} pairs. An existing environment of that name is left as it is.
 */
public final class BootstrapEnvironment {
    private BootstrapEnvironment() {
    }

    public static boolean ensure(EnvironmentStore store, AuditLog audit, Clock clock, String name, String type,
                                 @Nullable String environmentId, List<String> urlPairs) {
        if (urlPairs.isEmpty() || store.find(name).isPresent()) {
            return false;
        }
        if (!EnvironmentIds.isValid(environmentId)) {
            throw new InvalidSettingException("pylon.manager.bootstrap.environment-urls needs pylon.environment.id "
                    + "to be 24 lower-case hex digits");
        }
        if (!EnvironmentEndpoints.TYPES.contains(type)) {
            throw new InvalidSettingException("pylon.manager.bootstrap.environment-type must be one of "
                    + String.join(", ", EnvironmentEndpoints.TYPES));
        }
        Map<String, String> urls = new LinkedHashMap<>();
        for (String pair : urlPairs) {
            int eq = pair.indexOf('=');
            String module = eq > 0 ? pair.substring(0, eq).strip() : "";
            if (!Environment.MODULES.contains(module)) {
                throw new InvalidSettingException("pylon.manager.bootstrap.environment-urls: '" + pair
                        + "' is not module=url with a module of " + String.join(", ", Environment.MODULES));
            }
            try {
                urls.put(module, EnvironmentEndpoints.url(module, pair.substring(eq + 1)));
            } catch (ApiException e) {
                throw new InvalidSettingException("pylon.manager.bootstrap.environment-urls: " + e.getMessage());
            }
        }
        if (!urls.containsKey("worker") || !urls.containsKey("cache")) {
            throw new InvalidSettingException("pylon.manager.bootstrap.environment-urls needs worker and cache URLs");
        }
        Instant now = clock.instant();
        boolean created = store.insert(new Environment(name, type, "Created at start-up", environmentId, urls, now, now));
        if (created) {
            audit.record("system", "environment.created", "environment:" + name, null, "bootstrap");
        }
        return created;
    }
}
