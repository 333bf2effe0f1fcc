package io.pylon.integration.store;

import io.pylon.core.testing.TestPostgres;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Integration pods that start together on a database nobody migrated yet (a first deploy of several replicas) all
 * start: one creates Flyway's history table and migrates, the others wait for it instead of failing on the history
 * table they found empty ("Unable to baseline schema history table ... as it already exists, and is empty").
 */
class ConcurrentMigrationTest {
    @Test
    void podsStartingTogetherOnAFreshPostgresDatabaseAllMigrate() throws Exception {
        TestPostgres postgres = TestPostgres.shared();
        for (int round = 0; round < 12; round++) {
            String url = postgres.createDatabase("integration_together");
            int pods = 6;
            CountDownLatch go = new CountDownLatch(1);
            ExecutorService threads = Executors.newFixedThreadPool(pods);
            try {
                List<Future<IntegrationDatabase>> opened = new ArrayList<>();
                for (int i = 0; i < pods; i++) {
                    opened.add(threads.submit(() -> {
                        go.await();
                        return IntegrationDatabase.open(url, TestPostgres.USER, TestPostgres.PASSWORD, 2, null);
                    }));
                }
                go.countDown();
                for (Future<IntegrationDatabase> database : opened) {
                    try (IntegrationDatabase open = database.get(60, TimeUnit.SECONDS)) {
                        assertThat(open.product()).isEqualTo("postgresql");
                    }
                }
            } finally {
                threads.shutdownNow();
            }
        }
    }
}
