package io.pylon.integration.store;

import java.time.Instant;

/**
 * A flow as stored: its document as written (JSON or YAML), a version that every change increases, and whether a
 * trigger key is set (never the key), and whether it is on (a flow switched off has no scheduled runs and takes no
 * trigger-key runs).
 */
public record StoredFlow(String name, String document, long version, boolean hasTriggerKey, boolean enabled,
                         Instant createdAt, Instant updatedAt) {
}
