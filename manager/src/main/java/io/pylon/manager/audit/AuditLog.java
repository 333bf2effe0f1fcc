package io.pylon.manager.audit;

import io.pylon.manager.db.Jdbc;
import org.jspecify.annotations.Nullable;

import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.function.BiConsumer;

/**
 * Who did what, when and from where: token issued, failed login, lockout, token revoked, user and environment
 * changes. Stored in the database (shared by Manager replicas) and echoed to the log. Never holds a secret.
 */
public final class AuditLog {
    private static final System.Logger LOG = System.getLogger(AuditLog.class.getName());
    private static final int MAX_FIELD = 200;

    private final Jdbc jdbc;
    private final Clock clock;
    private final BiConsumer<String, String> recorded;

    public AuditLog(Jdbc jdbc, Clock clock) {
        this(jdbc, clock, (action, outcome) -> { });
    }

    /** @param recorded told the action and outcome of each event once it is stored (the Manager's meters) */
    public AuditLog(Jdbc jdbc, Clock clock, BiConsumer<String, String> recorded) {
        this.jdbc = jdbc;
        this.clock = clock;
        this.recorded = recorded;
    }

    public void record(String actor, String action, String target, @Nullable String sourceAddress, String outcome) {
        Instant now = clock.instant();
        jdbc.update("INSERT INTO audit_events (event_time, actor, action, target, source_address, outcome) "
                        + "VALUES (?, ?, ?, ?, ?, ?)",
                now, cut(actor == null ? "-" : actor, 64), cut(action, 64), cut(target, MAX_FIELD),
                cut(sourceAddress, 64), cut(outcome, 32));
        LOG.log(Level.INFO, "audit action=" + action + " actor=" + actor + " target=" + target
                + " source=" + (sourceAddress == null ? "-" : sourceAddress) + " outcome=" + outcome);
        recorded.accept(action, outcome);
    }

    /** The newest events first; {@code beforeId} pages back (0: from the newest). */
    public List<AuditEvent> recent(int limit, long beforeId) {
        String where = beforeId > 0 ? "WHERE id < ? " : "";
        Object[] params = beforeId > 0 ? new Object[]{beforeId, limit} : new Object[]{limit};
        return jdbc.query("SELECT id, event_time, actor, action, target, source_address, outcome FROM audit_events "
                        + where + "ORDER BY id DESC FETCH FIRST ? ROWS ONLY",
                rs -> new AuditEvent(rs.getLong("id"), Jdbc.requiredInstant(rs, "event_time"), rs.getString("actor"),
                        rs.getString("action"), rs.getString("target"), rs.getString("source_address"),
                        rs.getString("outcome")), params);
    }

    public int purge(Instant before) {
        return jdbc.update("DELETE FROM audit_events WHERE event_time < ?", before);
    }

    private static @Nullable String cut(@Nullable String value, int max) {
        return value == null || value.length() <= max ? value : value.substring(0, max);
    }
}
