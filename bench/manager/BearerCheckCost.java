import io.pylon.manager.api.Role;
import io.pylon.manager.auth.TokenRepository;
import io.pylon.manager.auth.TokenService;
import io.pylon.manager.auth.UserRepository;
import io.pylon.manager.db.Database;
import io.pylon.manager.db.Jdbc;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * CPU time of one Bearer check in this JVM (what the check adds to every request), with the token check cache
 * (SHA-256 and a map look-up) and without it (a query of token and account on H2):
 * `java -cp <manager classpath> BearerCheckCost.java`. Prints the median of 7 batches.
 */
public final class BearerCheckCost {
    public static void main(String[] args) throws Exception {
        Path dir = Files.createTempDirectory("bearer-cost");
        try (Database database = Database.open(Database.h2Url(dir), "pylon", "", 4)) {
            Jdbc jdbc = new Jdbc(database.dataSource());
            new UserRepository(jdbc).insert("bench", "$argon2id$unused", Role.VIEWER, Instant.now());
            for (Duration cache : new Duration[]{Duration.ofSeconds(2), Duration.ZERO}) {
                TokenService tokens = new TokenService(new TokenRepository(jdbc), Duration.ofHours(1), cache, Clock.systemUTC());
                String token = tokens.issueAccessToken("bench").value();
                int batch = cache.isZero() ? 20_000 : 200_000;
                double[] perCheck = new double[7];
                for (int round = -2; round < perCheck.length; round++) {
                    long t0 = System.nanoTime();
                    for (int i = 0; i < batch; i++) {
                        if (tokens.authenticate(token).isEmpty()) {
                            throw new IllegalStateException("the token must be valid");
                        }
                    }
                    if (round >= 0) {
                        perCheck[round] = (System.nanoTime() - t0) / 1000.0 / batch;
                    }
                }
                java.util.Arrays.sort(perCheck);
                System.out.printf("Bearer check, cache %-4s median %.2f us per check (batches of %d; min %.2f, max %.2f)%n",
                        cache.isZero() ? "off" : cache.toSeconds() + "s", perCheck[3], batch, perCheck[0], perCheck[6]);
            }
        }
        try (var paths = Files.walk(dir)) {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
