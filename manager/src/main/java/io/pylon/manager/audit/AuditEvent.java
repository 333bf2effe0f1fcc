package io.pylon.manager.audit;

import java.time.Instant;

/** One audited action. No field ever holds a secret: callers pass names, never passwords, tokens or IDs. */
public record AuditEvent(long id, Instant time, String actor, String action, String target, String sourceAddress,
                         String outcome) {
}
