package io.pylon.manager.portal;

import io.pylon.manager.db.Jdbc;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** Developers and their Portal sessions in the Manager's database. Stateless apart from the pool; thread-safe. */
public final class DeveloperStore {
    private static final String COLUMNS = "id, email, password_hash, status, failed_attempts, locked_until, created_at";

    private final Jdbc jdbc;

    public DeveloperStore(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    /** @return false when the e-mail is taken */
    public boolean insert(Developer d) {
        try {
            jdbc.update("INSERT INTO developers (id, email, password_hash, status, failed_attempts, created_at, "
                    + "updated_at) VALUES (?, ?, ?, ?, 0, ?, ?)", d.id(), d.email(), d.passwordHash(), d.status(),
                    d.createdAt(), d.createdAt());
            return true;
        } catch (RuntimeException e) {
            if (Jdbc.isDuplicateKey(e)) {
                return false;
            }
            throw e;
        }
    }

    public Optional<Developer> byEmail(String email) {
        return jdbc.queryOne("SELECT " + COLUMNS + " FROM developers WHERE email = ?", DeveloperStore::map, email);
    }

    public Optional<Developer> byId(String id) {
        return jdbc.queryOne("SELECT " + COLUMNS + " FROM developers WHERE id = ?", DeveloperStore::map, id);
    }

    /** Developers newest first, all or those of one status. */
    public List<Developer> list(String status, int limit) {
        String where = status == null ? "" : " WHERE status = ?";
        Object[] parameters = status == null ? new Object[0] : new Object[]{status};
        return jdbc.query("SELECT " + COLUMNS + " FROM developers" + where + " ORDER BY created_at DESC, id FETCH FIRST "
                + limit + " ROWS ONLY", DeveloperStore::map, parameters);
    }

    public boolean setStatus(String id, String status, Instant now) {
        return jdbc.update("UPDATE developers SET status = ?, updated_at = ? WHERE id = ?", status, now, id) == 1;
    }

    /** Counts a failed sign-in; the account locks for {@code lockFor} at {@code max} failures. */
    public void recordFailure(String id, int max, Instant now, Instant lockUntil) {
        jdbc.update("UPDATE developers SET locked_until = CASE WHEN failed_attempts + 1 >= ? THEN ? ELSE locked_until "
                + "END, failed_attempts = CASE WHEN failed_attempts + 1 >= ? THEN 0 ELSE failed_attempts + 1 END, "
                + "updated_at = ? WHERE id = ?", max, lockUntil, max, now, id);
    }

    public void resetFailures(String id) {
        jdbc.update("UPDATE developers SET failed_attempts = 0, locked_until = NULL WHERE id = ?", id);
    }

    public void insertSession(String tokenHash, String developerId, String csrf, Instant expiresAt) {
        jdbc.update("INSERT INTO developer_sessions (token_hash, developer_id, csrf, expires_at) VALUES (?, ?, ?, ?)",
                tokenHash, developerId, csrf, expiresAt);
    }

    /** The developer and the session's CSRF token, while the session lives. */
    public Optional<Session> session(String tokenHash, Instant now) {
        return jdbc.queryOne("SELECT s.developer_id, s.csrf FROM developer_sessions s WHERE s.token_hash = ? "
                + "AND s.expires_at > ?", rs -> new Session(rs.getString(1), rs.getString(2)), tokenHash, now);
    }

    public void deleteSession(String tokenHash) {
        jdbc.update("DELETE FROM developer_sessions WHERE token_hash = ?", tokenHash);
    }

    public void deleteSessionsOf(String developerId) {
        jdbc.update("DELETE FROM developer_sessions WHERE developer_id = ?", developerId);
    }

    public int purgeSessions(Instant now) {
        return jdbc.update("DELETE FROM developer_sessions WHERE expires_at <= ?", now);
    }

    public record Session(String developerId, String csrf) {
    }

    private static Developer map(ResultSet rs) throws SQLException {
        return new Developer(rs.getString("id"), rs.getString("email"), rs.getString("password_hash"),
                rs.getString("status"), rs.getInt("failed_attempts"), Jdbc.instant(rs, "locked_until"),
                Jdbc.requiredInstant(rs, "created_at"));
    }
}
