package io.pylon.manager.console;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import org.jspecify.annotations.Nullable;

/**
 * What the Server Management screen shows on a module's card. {@code status} is UP or DOWN as the module reports it,
 * UNREACHABLE when it did not answer, NOT_CONFIGURED when the environment names no URL for it.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
record ModuleStatus(String module, String displayName, @Nullable String url, String status, @Nullable Integer httpStatus, @Nullable String version,
                    @Nullable JsonNode versionDetails, @Nullable JsonNode checks, @Nullable Long responseTime, String checkedAt, @Nullable String error) {

    static ModuleStatus notConfigured(String module, String displayName, String checkedAt) {
        return new ModuleStatus(module, displayName, null, "NOT_CONFIGURED", null, null, null, null, null, checkedAt,
                "The environment names no URL for the " + displayName + ".");
    }
}
