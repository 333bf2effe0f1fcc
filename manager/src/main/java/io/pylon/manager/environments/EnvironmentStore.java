package io.pylon.manager.environments;

import io.pylon.manager.db.Jdbc;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Environments in the {@code environments} table; what other code on the Manager reads them through. */
public final class EnvironmentStore {
    private static final String COLUMNS = "name, type, description, environment_id, manager_url, worker_url, "
            + "cache_url, integration_url, portal_url, created_at, updated_at";

    private final Jdbc jdbc;

    /** The Workers' key set carries each environment's Portal origin: a change to it must reach them. */
    private static final String BUMP_KEY_SET = "UPDATE key_set_version SET version = version + 1 WHERE id = 1";

    public EnvironmentStore(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    public Optional<Environment> find(String name) {
        return jdbc.queryOne("SELECT " + COLUMNS + " FROM environments WHERE name = ?", EnvironmentStore::map, name);
    }

    public List<Environment> list() {
        return jdbc.query("SELECT " + COLUMNS + " FROM environments ORDER BY name", EnvironmentStore::map);
    }

    /** Inserts the environment; false when the name is taken. */
    public boolean insert(Environment e) {
        try {
            jdbc.update("INSERT INTO environments (" + COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    e.name(), e.type(), e.description(), e.environmentId(), e.urls().get("manager"),
                    e.urls().get("worker"), e.urls().get("cache"), e.urls().get("integration"), e.urls().get("portal"),
                    e.createdAt(), e.updatedAt());
            if (e.urls().containsKey("portal")) {
                jdbc.update(BUMP_KEY_SET);
            }
            return true;
        } catch (RuntimeException ex) {
            if (Jdbc.isDuplicateKey(ex)) {
                return false;
            }
            throw ex;
        }
    }

    /**
     * Replaces type, description and URLs; false when there is no such environment. The Workers' key set carries each
     * environment's Portal origin (which published APIs admit through CORS), so the change bumps its version too.
     */
    public boolean update(String name, String type, String description, Map<String, String> urls, Instant now) {
        return jdbc.inTransaction(c -> {
            int changed = Jdbc.update(c, "UPDATE environments SET type = ?, description = ?, manager_url = ?, "
                            + "worker_url = ?, cache_url = ?, integration_url = ?, portal_url = ?, updated_at = ? "
                            + "WHERE name = ?", type, description, urls.get("manager"), urls.get("worker"),
                    urls.get("cache"), urls.get("integration"), urls.get("portal"), now, name);
            Jdbc.update(c, BUMP_KEY_SET);
            return changed == 1;
        });
    }

    public boolean updateId(String name, String environmentId, Instant now) {
        return jdbc.update("UPDATE environments SET environment_id = ?, updated_at = ? WHERE name = ?",
                environmentId, now, name) == 1;
    }

    public boolean delete(String name) {
        return jdbc.update("DELETE FROM environments WHERE name = ?", name) == 1;
    }

    private static Environment map(ResultSet rs) throws SQLException {
        Map<String, String> urls = new LinkedHashMap<>();
        for (String module : Environment.MODULES) {
            String url = rs.getString(module + "_url");
            if (url != null) {
                urls.put(module, url);
            }
        }
        return new Environment(rs.getString("name"), rs.getString("type"), rs.getString("description"),
                rs.getString("environment_id"), urls, Jdbc.requiredInstant(rs, "created_at"), Jdbc.requiredInstant(rs, "updated_at"));
    }
}
