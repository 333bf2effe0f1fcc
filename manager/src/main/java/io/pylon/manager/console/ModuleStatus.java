package io.pylon.manager.console;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * What the Server Management screen shows on a module's card. {@code status} is UP or DOWN as the module reports it,
 * UNREACHABLE when it did not answer, NOT_CONFIGURED when the environment names no URL for it.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
record ModuleStatus(String module, String displayName, String url, String status, Integer httpStatus, String version,
                    JsonNode versionDetails, JsonNode checks, Long responseTime, String checkedAt, String error) {

    static ModuleStatus notConfigured(String module, String displayName, String checkedAt) {
        return new ModuleStatus(module, displayName, null, "NOT_CONFIGURED", null, null, null, null, null, checkedAt,
                "The environment names no URL for the " + displayName + ".");
    }
}
