package io.pylon.core.broadcast;

import com.fasterxml.jackson.databind.JsonNode;
import io.pylon.core.http.Json;

import java.io.IOException;
import java.io.InputStream;

/** Turns a pod's non-200 answer into its element's error: the pod's own status, and its error description. */
final class PeerErrors {
    /** Error bodies are small; more than this is not read. */
    private static final int MAX_ERROR_BODY = 16 * 1024;

    private PeerErrors() {
    }

    static PodFailure of(int status, InputStream body) {
        String description = null;
        try {
            byte[] bytes = body.readNBytes(MAX_ERROR_BODY);
            JsonNode error = Json.MAPPER.readTree(bytes);
            if (error != null && error.isObject()) {
                description = error.path("error_description").asText(error.path("error").asText(null));
            }
        } catch (IOException | RuntimeException e) {
            // no readable description: the status says enough
        }
        return new PodFailure(status, "pod answered " + status + (description == null || description.isBlank() ? "" : ": " + description));
    }
}
