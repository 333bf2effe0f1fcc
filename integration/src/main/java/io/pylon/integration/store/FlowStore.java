package io.pylon.integration.store;

import javax.sql.DataSource;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;

/**
 * The flows table: documents, trigger key hashes (SHA-256; the key itself is shown once), the run that holds a
 * {@code forbid} flow, and the previous finished run's step outputs. Stateless over the shared database; safe from any
 * thread and any pod (every change is one conditional statement).
 */
public final class FlowStore {
    private static final String COLUMNS = "name, document, version, trigger_key_hash, enabled, created_at, updated_at";
    private final Sql sql;

    public FlowStore(DataSource dataSource) {
        this.sql = new Sql(dataSource);
    }

    private static StoredFlow row(java.sql.ResultSet rs) throws java.sql.SQLException {
        return new StoredFlow(rs.getString("name"), rs.getString("document"), rs.getLong("version"),
                rs.getString("trigger_key_hash") != null, rs.getBoolean("enabled"), Sql.instant(rs, "created_at"), Sql.instant(rs, "updated_at"));
    }

    /** @return false when a flow of that name exists */
    public boolean create(String name, String document, String triggerKey, Instant now) {
        try {
            return sql.update("INSERT INTO integration_flow (" + COLUMNS + ") VALUES (?, ?, 1, ?, TRUE, ?, ?)", name, document,
                    triggerKey == null ? null : hash(triggerKey), now, now) == 1;
        } catch (StoreException e) {
            if (e.duplicateKey()) {
                return false;
            }
            throw e;
        }
    }

    /** @return the new version, or -1 when there is no such flow */
    public long replace(String name, String document, Instant now) {
        int n = sql.update("UPDATE integration_flow SET document = ?, version = version + 1, updated_at = ? WHERE name = ?",
                document, now, name);
        if (n == 0) {
            return -1;
        }
        StoredFlow flow = find(name);
        return flow == null ? -1 : flow.version();
    }

    /**
     * Switches a flow on or off; a change counts as a new version, so that a scheduled execution holding the old one
     * notices.
     *
     * @return false when there is no such flow
     */
    public boolean setEnabled(String name, boolean enabled, Instant now) {
        if (sql.update("UPDATE integration_flow SET enabled = ?, version = version + 1, updated_at = ? "
                + "WHERE name = ? AND enabled <> ?", enabled, now, name, enabled) == 1) {
            return true;
        }
        return find(name) != null;
    }

    public boolean delete(String name) {
        return sql.update("DELETE FROM integration_flow WHERE name = ?", name) == 1;
    }

    public StoredFlow find(String name) {
        return sql.one("SELECT " + COLUMNS + " FROM integration_flow WHERE name = ?", FlowStore::row, name);
    }

    /** Flows by name, after {@code after} (exclusive; null from the start), at most {@code limit}. */
    public List<StoredFlow> list(String after, int limit) {
        return sql.query("SELECT " + COLUMNS + " FROM integration_flow WHERE name > ? ORDER BY name FETCH FIRST ? ROWS ONLY",
                FlowStore::row, after == null ? "" : after, limit);
    }

    public int count() {
        return sql.one("SELECT COUNT(*) FROM integration_flow", rs -> rs.getInt(1));
    }

    public boolean setTriggerKey(String name, String triggerKey) {
        return sql.update("UPDATE integration_flow SET trigger_key_hash = ? WHERE name = ?", hash(triggerKey), name) == 1;
    }

    /** Whether the key is the flow's trigger key (compared as hashes, in constant time). */
    public boolean triggerKeyMatches(String name, String triggerKey) {
        String stored = sql.one("SELECT trigger_key_hash FROM integration_flow WHERE name = ?", rs -> rs.getString(1), name);
        return stored != null && MessageDigest.isEqual(stored.getBytes(StandardCharsets.US_ASCII),
                hash(triggerKey).getBytes(StandardCharsets.US_ASCII));
    }

    /**
     * Makes {@code runId} the flow's running run unless another run holds it (a {@code forbid} flow). A run that is
     * picked up again after its pod died holds it already and gets it again.
     */
    public boolean hold(String name, String runId) {
        return sql.update("UPDATE integration_flow SET running_run = ? WHERE name = ? AND (running_run IS NULL OR running_run = ?)",
                runId, name, runId) == 1;
    }

    public void release(String name, String runId) {
        sql.update("UPDATE integration_flow SET running_run = NULL WHERE name = ? AND running_run = ?", name, runId);
    }

    /** The step outputs of the previous finished run (a JSON object), or null. */
    public String previousOutputs(String name) {
        return sql.one("SELECT previous_outputs FROM integration_flow WHERE name = ?", rs -> rs.getString(1), name);
    }

    public void setPreviousOutputs(String name, String outputs) {
        sql.update("UPDATE integration_flow SET previous_outputs = ? WHERE name = ?", outputs, name);
    }

    static String hash(String key) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
