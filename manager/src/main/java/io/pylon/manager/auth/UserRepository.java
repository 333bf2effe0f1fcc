package io.pylon.manager.auth;

import io.pylon.manager.api.Role;
import io.pylon.manager.db.Jdbc;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** Accounts in the {@code users} table. */
public final class UserRepository {
    private static final String COLUMNS =
            "username, password_hash, role, enabled, failed_attempts, locked_until, created_at, updated_at";

    private final Jdbc jdbc;

    public UserRepository(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    public Optional<User> find(String username) {
        return jdbc.queryOne("SELECT " + COLUMNS + " FROM users WHERE username = ?", UserRepository::map, username);
    }

    public List<User> list() {
        return jdbc.query("SELECT " + COLUMNS + " FROM users ORDER BY username", UserRepository::map);
    }

    public long count() {
        return jdbc.queryOne("SELECT COUNT(*) FROM users", rs -> rs.getLong(1)).orElse(0L);
    }

    /** Enabled administrators other than {@code except}: the last one may not be disabled, demoted or deleted. */
    public long countOtherEnabledAdmins(String except) {
        return jdbc.queryOne("SELECT COUNT(*) FROM users WHERE role = ? AND enabled = ? AND username <> ?",
                rs -> rs.getLong(1), Role.ADMIN.wireName(), true, except).orElse(0L);
    }

    /** Inserts the account; false when the username is taken. */
    public boolean insert(String username, String passwordHash, Role role, Instant now) {
        try {
            jdbc.update("INSERT INTO users (" + COLUMNS + ") VALUES (?, ?, ?, ?, 0, NULL, ?, ?)",
                    username, passwordHash, role.wireName(), true, now, now);
            return true;
        } catch (RuntimeException e) {
            if (Jdbc.isDuplicateKey(e)) {
                return false;
            }
            throw e;
        }
    }

    public boolean updateRole(String username, Role role, Instant now) {
        return jdbc.update("UPDATE users SET role = ?, updated_at = ? WHERE username = ?", role.wireName(), now, username) == 1;
    }

    public boolean updateEnabled(String username, boolean enabled, Instant now) {
        return jdbc.update("UPDATE users SET enabled = ?, updated_at = ? WHERE username = ?", enabled, now, username) == 1;
    }

    public boolean updatePassword(String username, String passwordHash, Instant now) {
        return jdbc.update("UPDATE users SET password_hash = ?, updated_at = ? WHERE username = ?",
                passwordHash, now, username) == 1;
    }

    /** What one failed password did to the account's count. */
    public enum Failure {
        /** Counted, below the threshold. */
        COUNTED,
        /** Counted, reached the threshold: the account is now locked and its count starts again. */
        LOCKED,
        /** Not counted: the account was locked (by a concurrent failure) or is gone. */
        NOT_COUNTED
    }

    /**
     * Counts one more consecutive failure unless the account is locked at {@code now}, and locks it until
     * {@code lockUntil} when the count reaches {@code maxFailures}. One transaction: the increment takes the row's
     * write lock, so concurrent failures are counted one by one and exactly one of them locks the account (a failure
     * that waited for the lock re-reads the row and finds it locked).
     */
    public Failure recordFailure(String username, Instant now, int maxFailures, Instant lockUntil) {
        return jdbc.inTransaction(c -> {
            int updated = Jdbc.update(c, "UPDATE users SET failed_attempts = failed_attempts + 1 WHERE username = ? "
                    + "AND (locked_until IS NULL OR locked_until <= ?)", username, now);
            if (updated == 0) {
                return Failure.NOT_COUNTED;
            }
            List<Integer> rows = Jdbc.query(c, "SELECT failed_attempts FROM users WHERE username = ?",
                    rs -> rs.getInt(1), username);
            if (rows.isEmpty() || rows.getFirst() < maxFailures) {
                return Failure.COUNTED;
            }
            Jdbc.update(c, "UPDATE users SET locked_until = ?, failed_attempts = 0 WHERE username = ?",
                    lockUntil, username);
            return Failure.LOCKED;
        });
    }

    /** After a successful login: the failure count starts again. */
    public void resetFailures(String username) {
        jdbc.update("UPDATE users SET failed_attempts = 0 WHERE username = ? AND failed_attempts <> 0", username);
    }

    public boolean unlock(String username, Instant now) {
        return jdbc.update("UPDATE users SET locked_until = NULL, failed_attempts = 0, updated_at = ? WHERE username = ?",
                now, username) == 1;
    }

    public boolean delete(String username) {
        return jdbc.update("DELETE FROM users WHERE username = ?", username) == 1;
    }

    private static User map(ResultSet rs) throws SQLException {
        return new User(rs.getString("username"), rs.getString("password_hash"),
                Role.parse(rs.getString("role")).orElse(Role.VIEWER), rs.getBoolean("enabled"),
                rs.getInt("failed_attempts"), Jdbc.instant(rs, "locked_until"), Jdbc.requiredInstant(rs, "created_at"),
                Jdbc.requiredInstant(rs, "updated_at"));
    }
}
