package io.pylon.manager.proxies;

import org.jspecify.annotations.Nullable;

import com.fasterxml.jackson.databind.JsonNode;
import io.pylon.core.http.Json;
import io.pylon.gateway.model.CanonicalJson;
import io.pylon.manager.db.Jdbc;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * API proxies in the {@code proxies} table (name and latest revision number) and their immutable revisions in
 * {@code proxy_revisions}. A change is a new revision, written in the same transaction that moves the proxy's number
 * forward only from the number the caller read (optimistic concurrency: a stale writer changes nothing).
 */
public final class ProxyStore {
    private static final String REVISION_COLUMNS = "name, revision, definition, openapi, author, created_at, comment";

    private final Jdbc jdbc;

    public ProxyStore(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    /** The outcome of a change: the new revision, or why none was written. */
    public sealed interface Change permits Written, NotFound, Stale, Exists {
    }

    public record Written(ProxyRevision revision) implements Change {
    }

    public record NotFound() implements Change {
    }

    /** The proxy has moved on: {@code current} is its latest revision number. */
    public record Stale(int current) implements Change {
    }

    public record Exists() implements Change {
    }

    public Change create(String name, JsonNode definition, @Nullable String openapi, String author, String comment, Instant now) {
        try {
            return jdbc.inTransaction(c -> {
                Jdbc.update(c, "INSERT INTO proxies (name, revision, created_at, updated_at, updated_by) "
                        + "VALUES (?, 1, ?, ?, ?)", name, now, now, author);
                ProxyRevision revision = new ProxyRevision(name, 1, definition, openapi, author, now, comment);
                insertRevision(c, revision);
                return new Written(revision);
            });
        } catch (RuntimeException e) {
            if (Jdbc.isDuplicateKey(e)) {
                return new Exists();
            }
            throw e;
        }
    }

    /** @param expected the revision the caller's change is based on; null: whatever is latest */
    public Change update(String name, @Nullable Integer expected, JsonNode definition, @Nullable String openapi,
                         String author, String comment, Instant now) {
        return jdbc.inTransaction(c -> {
            List<Integer> current = Jdbc.query(c, "SELECT revision FROM proxies WHERE name = ?",
                    rs -> rs.getInt(1), name);
            if (current.isEmpty()) {
                return new NotFound();
            }
            int base = expected == null ? current.getFirst() : expected;
            int moved = Jdbc.update(c, "UPDATE proxies SET revision = revision + 1, updated_at = ?, updated_by = ? "
                    + "WHERE name = ? AND revision = ?", now, author, name, base);
            if (moved == 0) {
                List<Integer> now2 = Jdbc.query(c, "SELECT revision FROM proxies WHERE name = ?", rs -> rs.getInt(1), name);
                return now2.isEmpty() ? new NotFound() : new Stale(now2.getFirst());
            }
            ProxyRevision revision = new ProxyRevision(name, base + 1, definition, openapi, author, now, comment);
            insertRevision(c, revision);
            return new Written(revision);
        });
    }

    private static void insertRevision(java.sql.Connection c, ProxyRevision r) throws SQLException {
        Jdbc.update(c, "INSERT INTO proxy_revisions (" + REVISION_COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?)",
                r.name(), r.revision(), new String(CanonicalJson.bytes(r.definition()), java.nio.charset.StandardCharsets.UTF_8), r.openapi(), r.author(),
                r.createdAt(), r.comment());
    }

    /** The latest revision of each proxy, by name. */
    public List<ProxyRevision> list() {
        return jdbc.query("SELECT r.name, r.revision, r.definition, NULL AS openapi, r.author, r.created_at, r.comment "
                + "FROM proxies p JOIN proxy_revisions r ON r.name = p.name AND r.revision = p.revision "
                + "ORDER BY p.name", ProxyStore::map);
    }

    public Optional<ProxyRevision> latest(String name) {
        return jdbc.queryOne("SELECT r.name, r.revision, r.definition, r.openapi, r.author, r.created_at, r.comment "
                + "FROM proxies p JOIN proxy_revisions r ON r.name = p.name AND r.revision = p.revision "
                + "WHERE p.name = ?", ProxyStore::map, name);
    }

    public Optional<ProxyRevision> revision(String name, int revision) {
        return jdbc.queryOne("SELECT " + REVISION_COLUMNS + " FROM proxy_revisions WHERE name = ? AND revision = ?",
                ProxyStore::map, name, revision);
    }

    /** Every revision of a proxy, newest first, without their OpenAPI documents. */
    public List<ProxyRevision> revisions(String name) {
        return jdbc.query("SELECT name, revision, definition, NULL AS openapi, author, created_at, comment "
                + "FROM proxy_revisions WHERE name = ? ORDER BY revision DESC", ProxyStore::map, name);
    }

    public Optional<Instant> createdAt(String name) {
        return jdbc.queryOne("SELECT created_at FROM proxies WHERE name = ?", rs -> Jdbc.requiredInstant(rs, "created_at"), name);
    }

    /** Deletes the proxy and its revisions; deployments keep their own copy of what they deployed. */
    public boolean delete(String name) {
        return jdbc.inTransaction(c -> {
            int deleted = Jdbc.update(c, "DELETE FROM proxies WHERE name = ?", name);
            Jdbc.update(c, "DELETE FROM proxy_revisions WHERE name = ?", name);
            return deleted == 1;
        });
    }

    private static ProxyRevision map(ResultSet rs) throws SQLException {
        JsonNode definition;
        try {
            definition = Json.MAPPER.readTree(rs.getString("definition"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new ProxyRevision(rs.getString("name"), rs.getInt("revision"), definition, rs.getString("openapi"),
                rs.getString("author"), Jdbc.requiredInstant(rs, "created_at"), rs.getString("comment"));
    }
}
