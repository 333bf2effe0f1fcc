package io.pylon.manager.db;

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

/** Manager replicas that start together on a PostgreSQL database nobody migrated yet all start. */
class ConcurrentManagerMigrationTest {
    @Test
    void replicasStartingTogetherOnAFreshPostgresDatabaseAllMigrate() throws Exception {
        TestPostgres postgres = TestPostgres.shared();
        for (int round = 0; round < 3; round++) {
            String url = postgres.createDatabase("manager_together");
            int replicas = 6;
            CountDownLatch go = new CountDownLatch(1);
            ExecutorService threads = Executors.newFixedThreadPool(replicas);
            try {
                List<Future<Database>> opened = new ArrayList<>();
                for (int i = 0; i < replicas; i++) {
                    opened.add(threads.submit(() -> {
                        go.await();
                        return Database.open(url, TestPostgres.USER, TestPostgres.PASSWORD, 2);
                    }));
                }
                go.countDown();
                for (Future<Database> database : opened) {
                    assertThat(database.get(60, TimeUnit.SECONDS)).isNotNull();
                }
                for (Future<Database> database : opened) {
                    database.get().close();
                }
            } finally {
                threads.shutdownNow();
            }
        }
    }
}
