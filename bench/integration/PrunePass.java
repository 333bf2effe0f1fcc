import io.pylon.integration.store.IntegrationDatabase;
import io.pylon.integration.store.RunStore;

import java.time.Duration;
import java.time.Instant;

/**
 * Times a history pruning pass that has nothing to delete (a count of KEEP runs a flow, ten years' retention) over a
 * filled history (HistoryFill.java), four times, and the diagnostics' count of open runs after each. TARGET is a data
 * directory (its H2) or a PostgreSQL JDBC URL (user postgres). Run it with the lib/ of the build to measure, e.g.
 * java -Xmx128m -XX:+UseSerialGC -cp 'distribution/target/pylon/lib/*' bench/integration/PrunePass.java TARGET 10000000
 */
public final class PrunePass {
    public static void main(String[] args) throws Exception {
        boolean postgres = args[0].startsWith("jdbc:postgresql:");
        String url = args[0].startsWith("jdbc:") ? args[0] : IntegrationDatabase.h2Url(java.nio.file.Path.of(args[0]));
        try (IntegrationDatabase db = IntegrationDatabase.open(url, postgres ? "postgres" : "pylon", "", 2, null)) {
            RunStore runs = new RunStore(db.dataSource(), 16384);
            for (int i = 0; i < 4; i++) {
                long t0 = System.nanoTime();
                int deleted = runs.prune(Instant.now().minus(Duration.ofDays(3650)), Integer.parseInt(args[1]), 5000);
                long t1 = System.nanoTime();
                int open = runs.openRuns();
                long t2 = System.nanoTime();
                System.out.printf("pruning pass: %d runs deleted in %.1f ms; %d open runs counted in %.1f ms%n", deleted,
                        (t1 - t0) / 1e6, open, (t2 - t1) / 1e6);
            }
        }
    }
}
