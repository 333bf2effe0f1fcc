package io.pylon.manager.auth;

import io.pylon.manager.api.Role;
import io.pylon.manager.db.Jdbc;
import org.jspecify.annotations.Nullable;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** Token hashes in the {@code tokens} table, read together with their account's state. */
public final class TokenRepository {
    private static final String SELECT = "SELECT t.id, t.username, t.kind, t.name, t.created_at, t.expires_at, "
            + "t.revoked_at, u.role, u.enabled FROM tokens t JOIN users u ON u.username = t.username ";

    private final Jdbc jdbc;

    public TokenRepository(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    public void insert(String id, String username, StoredToken.Kind kind, @Nullable String name, String tokenHash,
                       Instant createdAt, @Nullable Instant expiresAt) {
        jdbc.update("INSERT INTO tokens (id, username, kind, name, token_hash, created_at, expires_at, revoked_at) "
                        + "VALUES (?, ?, ?, ?, ?, ?, ?, NULL)",
                id, username, kind.name().toLowerCase(Locale.ROOT), name, tokenHash, createdAt, expiresAt);
    }

    public Optional<StoredToken> findByHash(String tokenHash) {
        return jdbc.queryOne(SELECT + "WHERE t.token_hash = ?", TokenRepository::map, tokenHash);
    }

    /** The user's personal tokens that are not revoked, newest first. */
    public List<StoredToken> listPersonal(String username) {
        return jdbc.query(SELECT + "WHERE t.username = ? AND t.kind = 'personal' AND t.revoked_at IS NULL "
                + "ORDER BY t.created_at DESC, t.id", TokenRepository::map, username);
    }

    /** Revokes one of the user's personal tokens; false when there is no such unrevoked token. */
    public boolean revokePersonal(String id, String username, Instant now) {
        return jdbc.update("UPDATE tokens SET revoked_at = ? WHERE id = ? AND username = ? AND kind = 'personal' "
                + "AND revoked_at IS NULL", now, id, username) == 1;
    }

    public boolean revoke(String id, Instant now) {
        return jdbc.update("UPDATE tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL", now, id) == 1;
    }

    /** Revokes every token of the account (disabled, password reset); returns how many. */
    public int revokeAll(String username, Instant now) {
        return jdbc.update("UPDATE tokens SET revoked_at = ? WHERE username = ? AND revoked_at IS NULL", now, username);
    }

    /** Deletes tokens that expired or were revoked before {@code before}; they can never be used again. */
    public int purge(Instant before) {
        return jdbc.update("DELETE FROM tokens WHERE (expires_at IS NOT NULL AND expires_at < ?) "
                + "OR (revoked_at IS NOT NULL AND revoked_at < ?)", before, before);
    }

    private static StoredToken map(ResultSet rs) throws SQLException {
        return new StoredToken(rs.getString("id"), rs.getString("username"),
                StoredToken.Kind.valueOf(rs.getString("kind").toUpperCase(Locale.ROOT)), rs.getString("name"),
                Jdbc.requiredInstant(rs, "created_at"), Jdbc.instant(rs, "expires_at"), Jdbc.instant(rs, "revoked_at"),
                Role.parse(rs.getString("role")).orElse(Role.VIEWER), rs.getBoolean("enabled"));
    }
}
