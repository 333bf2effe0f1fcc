package io.pylon.integration.store;

import org.jspecify.annotations.Nullable;

import javax.sql.DataSource;
import java.nio.charset.StandardCharsets;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;

/**
 * Run history: every run and every step attempt, outputs and errors cut to a bound, paged by keyset (the sequence
 * number) so that a page costs the same at any depth, and pruned by age and by count per flow. Stateless over the
 * shared database; safe from any thread and any pod.
 */
public final class RunStore {
    private static final int ERROR_MAX = 2000;
    private static final String RUN_COLUMNS = "seq, id, flow, trigger_kind, status, created_at, scheduled_at, "
            + "started_at, finished_at, pod, attempts, input, error";
    /** A page of runs leaves the inputs out (up to the history bound each): a page never shows them. */
    private static final String LIST_COLUMNS = "seq, id, flow, trigger_kind, status, created_at, scheduled_at, "
            + "started_at, finished_at, pod, attempts, NULL AS input, error";
    private static final String STEP_COLUMNS = "seq, step_id, kind, phase, attempt, status, started_at, finished_at, "
            + "http_status, output, output_bytes, truncated, error";
    private static final String OPEN = "('queued', 'running')";
    private static final java.time.Duration MAX_PAUSE = java.time.Duration.ofSeconds(5);

    private final Sql sql;
    private final int outputMax;

    /** @param outputMax the most characters of an output or input history keeps */
    public RunStore(DataSource dataSource, int outputMax) {
        this.sql = new Sql(dataSource);
        this.outputMax = outputMax;
    }

    private static RunRecord run(ResultSet rs) throws SQLException {
        return new RunRecord(rs.getLong("seq"), rs.getString("id"), rs.getString("flow"), rs.getString("trigger_kind"),
                rs.getString("status"), Sql.requiredInstant(rs, "created_at"), Sql.instant(rs, "scheduled_at"),
                Sql.instant(rs, "started_at"), Sql.instant(rs, "finished_at"), rs.getString("pod"),
                rs.getInt("attempts"), rs.getString("input"), rs.getString("error"));
    }

    private static StepRecord step(ResultSet rs) throws SQLException {
        return new StepRecord(rs.getLong("seq"), rs.getString("step_id"), rs.getString("kind"), rs.getString("phase"),
                rs.getInt("attempt"), rs.getString("status"), Sql.requiredInstant(rs, "started_at"),
                Sql.requiredInstant(rs, "finished_at"), Sql.integer(rs, "http_status"), rs.getString("output"),
                rs.getInt("output_bytes"), rs.getBoolean("truncated"), rs.getString("error"));
    }

    /** Records a run that waits for a pod (an HTTP trigger); nothing when it is recorded already. */
    public void queue(String id, String flow, String trigger, Instant scheduledAt, @Nullable String input, Instant now) {
        try {
            sql.update("INSERT INTO integration_run (id, flow, trigger_kind, status, created_at, scheduled_at, attempts, input) "
                    + "VALUES (?, ?, ?, 'queued', ?, ?, 0, ?)", id, flow, trigger, now, scheduledAt, cut(input));
        } catch (StoreException e) {
            if (!e.duplicateKey()) {
                throw e;
            }
        }
    }

    /** Marks a run as started on this pod (recording it first when it was not queued); answers it. */
    public RunRecord start(String id, String flow, String trigger, Instant scheduledAt, @Nullable String input,
                           String pod,
                           Instant now) {
        queue(id, flow, trigger, scheduledAt, input, now);
        sql.update("UPDATE integration_run SET status = 'running', attempts = attempts + 1, pod = ?, "
                + "started_at = COALESCE(started_at, ?) WHERE id = ?", pod, now, id);
        RunRecord started = find(id);
        if (started == null) {
            throw new IllegalStateException("Run " + id + " is missing right after it was recorded");
        }
        return started;
    }

    /** Records a run that ended without starting its steps (an overlap of a forbid flow). */
    public void skip(String id, String flow, String trigger, Instant scheduledAt, String reason, Instant now) {
        queue(id, flow, trigger, scheduledAt, null, now);
        sql.update("UPDATE integration_run SET status = 'skipped', finished_at = ?, error = ? WHERE id = ?", now,
                cutError(reason), id);
    }

    public void finish(String id, String status, @Nullable String error, Instant now) {
        sql.update("UPDATE integration_run SET status = ?, finished_at = ?, error = ? WHERE id = ?", status, now,
                cutError(error), id);
    }

    public void addStep(long runSeq, String flow, String stepId, String kind, String phase, int attempt, String status,
                        Instant startedAt, Instant finishedAt, @Nullable Integer httpStatus, @Nullable String output,
                        @Nullable String error) {
        int bytes = output == null ? 0 : output.getBytes(StandardCharsets.UTF_8).length;
        String kept = cut(output);
        sql.update("INSERT INTO integration_step (run_seq, flow, step_id, kind, phase, attempt, status, started_at, "
                        + "finished_at, http_status, output, output_bytes, truncated, error) "
                        + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                runSeq, flow, stepId, kind, phase, attempt, status, startedAt, finishedAt, httpStatus, kept, bytes,
                output != null && kept != null && kept.length() < output.length(), cutError(error));
    }

    public @Nullable RunRecord find(String id) {
        return sql.one("SELECT " + RUN_COLUMNS + " FROM integration_run WHERE id = ?", RunStore::run, id);
    }

    /**
     * A flow's runs without their inputs, newest first, older than {@code beforeSeq} (exclusive; null: from the
     * newest). Ordered by the whole index {@code (flow, seq)}: H2 then reads the index backwards and stops after the
     * page, where {@code ORDER BY seq DESC} alone made it read every run of the flow and sort them.
     */
    public List<RunRecord> runs(String flow, @Nullable Long beforeSeq, int limit) {
        return sql.query("SELECT " + LIST_COLUMNS + " FROM integration_run WHERE flow = ? AND seq < ? ORDER BY flow DESC, seq DESC "
                + "FETCH FIRST ? ROWS ONLY", RunStore::run, flow, beforeSeq == null ? Long.MAX_VALUE : beforeSeq, limit);
    }

    /**
     * The newest run of each flow named, by flow name (a flow without runs is absent), in one statement: a flow list's
     * page asked one query per flow. Each name is one seek down the {@code (flow, seq)} index.
     */
    public java.util.Map<String, RunRecord> latest(java.util.Collection<String> flows) {
        java.util.Map<String, RunRecord> out = new java.util.HashMap<>();
        if (flows.isEmpty()) {
            return out;
        }
        String names = String.join(", ", java.util.Collections.nCopies(flows.size(), "?"));
        for (RunRecord r : sql.query("SELECT " + LIST_COLUMNS + " FROM integration_run WHERE seq IN (SELECT (SELECT n.seq "
                + "FROM integration_run n WHERE n.flow = f.name ORDER BY n.flow DESC, n.seq DESC FETCH FIRST 1 ROWS ONLY) "
                + "FROM integration_flow f WHERE f.name IN (" + names + "))", RunStore::run, flows.toArray())) {
            out.put(r.flow(), r);
        }
        return out;
    }

    /** A flow's newest run, or null before its first. */
    public @Nullable RunRecord latest(String flow) {
        List<RunRecord> newest = runs(flow, null, 1);
        return newest.isEmpty() ? null : newest.get(0);
    }

    /** A run's step attempts in order, after {@code afterSeq} (exclusive; null: from the first). */
    public List<StepRecord> steps(long runSeq, @Nullable Long afterSeq, int limit) {
        return sql.query("SELECT " + STEP_COLUMNS + " FROM integration_step WHERE run_seq = ? AND seq > ? ORDER BY run_seq, seq "
                + "FETCH FIRST ? ROWS ONLY", RunStore::step, runSeq, afterSeq == null ? 0L : afterSeq, limit);
    }

    /** Runs of every flow that a pod has not finished, for diagnostics (read on the {@code status} index). */
    public int openRuns() {
        return sql.count("SELECT COUNT(*) FROM integration_run WHERE status IN " + OPEN);
    }

    /**
     * Deletes finished runs created before {@code cutoff} and, per flow, finished ones beyond the newest {@code keep}
     * (the open runs of the flow are not counted, so at least {@code keep} finished runs stay), with their steps, in
     * batches of {@code batch} runs so that no statement holds the tables long. After each batch it pauses as long as
     * the batch took: a backlog (a lowered count, a long downtime) is deleted at half a core at most, beside the pod's
     * runs and answers. Each step reads indexes only ({@code (flow, seq)}, {@code created_at}, the open runs), never
     * the runs of a flow one by one, so that a pass over a large history that has nothing to delete costs little.
     *
     * @return the runs deleted
     */
    public int prune(Instant cutoff, int keep, int batch) {
        int deleted = deleteAll("created_at < ? AND status NOT IN " + OPEN, batch, cutoff);
        for (String flow : flowsWithRuns()) {
            if (Thread.currentThread().isInterrupted()) {
                break;
            }
            int open = sql.count("SELECT COUNT(*) FROM integration_run WHERE status IN " + OPEN + " AND flow = ?", flow);
            Long cut = sql.one("SELECT seq FROM integration_run WHERE flow = ? ORDER BY flow DESC, seq DESC OFFSET ? ROWS "
                    + "FETCH FIRST 1 ROWS ONLY", rs -> rs.getLong(1), flow, keep + open);
            if (cut != null) {
                deleted += deleteAll("flow = ? AND seq <= ? AND status NOT IN " + OPEN, batch, flow, cut);
            }
        }
        return deleted;
    }

    /** Deletes the runs {@code where} names in batches, pausing between them; stops early when the pod stops. */
    private int deleteAll(String where, int batch, Object... args) {
        int deleted = 0;
        while (!Thread.currentThread().isInterrupted()) {
            long started = System.nanoTime();
            int n = deleteRuns(where, batch, args);
            deleted += n;
            if (n < batch) {
                break;
            }
            pause(java.time.Duration.ofNanos(System.nanoTime() - started));
        }
        return deleted;
    }

    /**
     * The flows that have runs, from the {@code (flow, seq)} index without reading the runs: H2 answers
     * {@code SELECT DISTINCT} by jumping from flow to flow down the index, where PostgreSQL reads every entry (every
     * run, once a pass); there one seek per flow finds the next one.
     */
    private List<String> flowsWithRuns() {
        if (!sql.postgres()) {
            return sql.query("SELECT DISTINCT flow FROM integration_run", rs -> rs.getString(1));
        }
        List<String> flows = new java.util.ArrayList<>();
        String flow = "";
        while ((flow = sql.one("SELECT flow FROM integration_run WHERE flow > ? ORDER BY flow FETCH FIRST 1 ROWS ONLY",
                rs -> rs.getString(1), flow)) != null) {
            flows.add(flow);
        }
        return flows;
    }

    private int deleteRuns(String where, int batch, Object... args) {
        Object[] withLimit = java.util.Arrays.copyOf(args, args.length + 1);
        withLimit[args.length] = batch;
        List<Long> seqs = sql.query("SELECT seq FROM integration_run WHERE " + where + " ORDER BY seq FETCH FIRST ? ROWS ONLY",
                rs -> rs.getLong(1), withLimit);
        if (seqs.isEmpty()) {
            return 0;
        }
        long first = seqs.get(0);
        long last = seqs.get(seqs.size() - 1);
        Object[] range = java.util.Arrays.copyOf(args, args.length + 2);
        range[args.length] = first;
        range[args.length + 1] = last;
        sql.update("DELETE FROM integration_step WHERE run_seq IN (SELECT seq FROM integration_run WHERE " + where
                + " AND seq BETWEEN ? AND ?)", range);
        sql.update("DELETE FROM integration_run WHERE " + where + " AND seq BETWEEN ? AND ?", range);
        return seqs.size();
    }

    /** Waits before the next batch of a backlog; an interrupt (the pod stopping) ends the wait and the pruning. */
    private static void pause(java.time.Duration took) {
        try {
            Thread.sleep(took.compareTo(MAX_PAUSE) > 0 ? MAX_PAUSE : took);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private @Nullable String cut(@Nullable String text) {
        if (text == null || text.length() <= outputMax) {
            return text;
        }
        return text.substring(0, outputMax);
    }

    private static @Nullable String cutError(@Nullable String error) {
        return error == null || error.length() <= ERROR_MAX ? error : error.substring(0, ERROR_MAX - 3) + "...";
    }
}
