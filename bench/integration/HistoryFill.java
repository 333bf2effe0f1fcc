import io.pylon.integration.store.IntegrationDatabase;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Timestamp;
import java.time.Instant;

/**
 * Fills an Integration pod's embedded database with history before the pod starts: RUNS runs of FLOWS flows, each
 * with STEPS step attempts (1,000,000 step records by default), outputs of a realistic size. TARGET is the pod's data
 * directory (its embedded H2) or the JDBC URL of the PostgreSQL database the pod will be given (user in PGUSER).
 * Usage: java -cp lib/* HistoryFill.java TARGET [runs] [steps-per-run] [flows]
 */
public final class HistoryFill {
    public static void main(String[] args) throws Exception {
        String url = args[0].startsWith("jdbc:") ? args[0] : IntegrationDatabase.h2Url(Path.of(args[0]));
        String user = args[0].startsWith("jdbc:") ? System.getenv().getOrDefault("PGUSER", "postgres") : "pylon";
        int runs = args.length > 1 ? Integer.parseInt(args[1]) : 250_000;
        int steps = args.length > 2 ? Integer.parseInt(args[2]) : 4;
        int flows = args.length > 3 ? Integer.parseInt(args[3]) : 10;
        String output = "{\"status\":200,\"headers\":{\"content-type\":\"application/json\"},\"body\":{\"rates\":"
                + "[{\"code\":\"EUR\",\"value\":1.1},{\"code\":\"USD\",\"value\":1.0}]}}";
        long start = System.nanoTime();
        try (IntegrationDatabase db = IntegrationDatabase.open(url, user, "", 2, null);
             Connection c = db.dataSource().getConnection()) {
            c.setAutoCommit(false);
            Instant t0 = Instant.now().minusSeconds(runs);
            try (PreparedStatement run = c.prepareStatement("INSERT INTO integration_run (seq, id, flow, trigger_kind, "
                    + "status, created_at, scheduled_at, started_at, finished_at, pod, attempts) "
                    + "VALUES (?, ?, ?, 'schedule', 'succeeded', ?, ?, ?, ?, 'integration-0', 1)");
                 PreparedStatement step = c.prepareStatement("INSERT INTO integration_step (run_seq, flow, step_id, "
                         + "kind, phase, attempt, status, started_at, finished_at, http_status, output, output_bytes, "
                         + "truncated) VALUES (?, ?, ?, 'http', 'steps', 1, 'succeeded', ?, ?, 200, ?, ?, FALSE)")) {
                for (int r = 1; r <= runs; r++) {
                    Timestamp at = Timestamp.from(t0.plusSeconds(r));
                    String flow = "bench-" + (r % flows);
                    run.setLong(1, r);
                    run.setString(2, java.util.UUID.randomUUID().toString());
                    run.setString(3, flow);
                    run.setTimestamp(4, at);
                    run.setTimestamp(5, at);
                    run.setTimestamp(6, at);
                    run.setTimestamp(7, at);
                    run.addBatch();
                    for (int s = 0; s < steps; s++) {
                        step.setLong(1, r);
                        step.setString(2, flow);
                        step.setString(3, "step" + s);
                        step.setTimestamp(4, at);
                        step.setTimestamp(5, at);
                        step.setString(6, output);
                        step.setInt(7, output.length());
                        step.addBatch();
                    }
                    if (r % 2000 == 0) {
                        run.executeBatch();
                        step.executeBatch();
                        c.commit();
                    }
                }
                run.executeBatch();
                step.executeBatch();
                c.commit();
            }
            try (var s = c.createStatement()) {
                s.execute("ALTER TABLE integration_run ALTER COLUMN seq RESTART WITH " + (runs + 1));
            }
            c.commit();
            if (url.startsWith("jdbc:postgresql:")) {
                c.setAutoCommit(true);
                try (var s = c.createStatement()) {
                    s.execute("VACUUM ANALYZE integration_run");
                    s.execute("VACUUM ANALYZE integration_step");
                }
            }
        }
        System.out.printf("filled %d runs, %d step records in %.1f s%n", runs, (long) runs * steps,
                (System.nanoTime() - start) / 1e9);
    }
}
