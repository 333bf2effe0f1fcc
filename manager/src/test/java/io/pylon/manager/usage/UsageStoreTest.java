package io.pylon.manager.usage;

import io.pylon.core.testing.TestPods;
import io.pylon.manager.db.Database;
import io.pylon.core.testing.TestPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Usage counts, migrated by Flyway, against H2 and a real PostgreSQL: reports add up, a report sent twice counts
 * once, concurrent reports creating the same rows all count, sums group by minute, application and proxy, and
 * pruning deletes what is older than the retention.
 */
class UsageStoreTest {
    private static Path h2Dir;
    private static Database h2;
    private static Database pg;

    @BeforeAll
    static void open() throws Exception {
        h2Dir = Files.createTempDirectory("pylon-h2-usage");
        h2 = Database.open(Database.h2Url(h2Dir), "pylon", "", 8);
        pg = Database.open(TestPostgres.shared().createDatabase("usage"), TestPostgres.USER, TestPostgres.PASSWORD, 8);
    }

    @AfterAll
    static void close() throws Exception {
        h2.close();
        pg.close();
        TestPods.deleteTree(h2Dir);
    }

    static Stream<Arguments> databases() {
        return Stream.of(Arguments.of("h2", h2), Arguments.of("postgresql", pg));
    }

    @ParameterizedTest(name = "{0}", autoCloseArguments = false)
    @MethodSource("databases")
    void reportsAddUpOnceEachAndArePruned(String product, Database database) throws Exception {
        UsageStore store = new UsageStore(database.jdbc());
        Instant now = Instant.now();
        Instant minute = now.truncatedTo(ChronoUnit.MINUTES).minus(Duration.ofMinutes(2));
        String app = UUID.randomUUID().toString();
        String other = UUID.randomUUID().toString();
        String proxy = "orders-" + product;
        List<UsageStore.Row> first = List.of(
                new UsageStore.Row(app, proxy, minute, 10, 2, 1, 5000, 900),
                new UsageStore.Row(other, proxy, minute, 3, 0, 0, 300, 100));
        assertThat(store.add("w1-a-1", "test", first, now)).isTrue();
        assertThat(store.add("w1-a-1", "test", first, now)).as("the same report again").isFalse();
        assertThat(store.add("w2-b-1", "test", List.of(new UsageStore.Row(app, proxy, minute, 5, 0, 5, 1000, 1000),
                new UsageStore.Row(app, proxy, minute.plus(Duration.ofMinutes(1)), 1, 1, 0, 50, 50)), now)).isTrue();

        // eight Workers' reports creating the same new row at once: every one counts
        Instant busy = minute.minus(Duration.ofMinutes(1));
        ExecutorService pool = Executors.newFixedThreadPool(8);
        List<Callable<Boolean>> reports = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            String id = "race-" + product + "-" + i;
            reports.add(() -> store.add(id, "test", List.of(new UsageStore.Row(app, proxy, busy, 2, 0, 0, 20, 10)), now));
        }
        for (Future<Boolean> done : pool.invokeAll(reports)) {
            assertThat(done.get()).isTrue();
        }
        pool.shutdown();

        Instant from = busy;
        Instant to = minute.plus(Duration.ofMinutes(2));
        List<UsageStore.Sum> minutes = store.sums(UsageStore.GroupBy.MINUTE, proxy, app, from, to);
        assertThat(minutes).extracting(UsageStore.Sum::group).containsExactly(busy.toString(), minute.toString(),
                minute.plus(Duration.ofMinutes(1)).toString());
        assertThat(minutes).extracting(UsageStore.Sum::requests).containsExactly(16L, 15L, 1L);
        assertThat(minutes.get(1)).isEqualTo(new UsageStore.Sum(minute.toString(), 15, 2, 6, 6000, 1000));
        assertThat(store.sums(UsageStore.GroupBy.APPLICATION, proxy, null, from, to))
                .extracting(s -> s.group() + "=" + s.requests())
                .containsExactlyInAnyOrder(app + "=32", other + "=3");
        assertThat(store.sums(UsageStore.GroupBy.PROXY, null, app, from, to))
                .extracting(s -> s.group() + "=" + s.requests()).containsExactly(proxy + "=32");

        assertThat(store.prune(minute, now.plusSeconds(1))).isEqualTo(1); // the busy minute's row is older
        assertThat(store.sums(UsageStore.GroupBy.MINUTE, proxy, app, from, to)).hasSize(2);
        // the report ids went too: a report sent again after that long would count again
        assertThat(store.add("w1-a-1", "test", List.of(), now)).isTrue();
    }
}
