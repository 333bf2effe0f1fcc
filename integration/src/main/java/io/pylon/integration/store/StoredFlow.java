package io.pylon.integration.store;

import java.time.Instant;

/**
 * A flow as stored: its document as written (JSON or YAML), a version that every change increases, and whether a
 * trigger key is set (never the key).
 */
public record StoredFlow(String name, String document, long version, boolean hasTriggerKey, Instant createdAt,
                         Instant updatedAt) {
}
