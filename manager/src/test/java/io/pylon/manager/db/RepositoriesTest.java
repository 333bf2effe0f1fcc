package io.pylon.manager.db;

import io.pylon.core.testing.TestPostgres;
import io.pylon.core.testing.TestPods;
import io.pylon.manager.Concurrently;
import io.pylon.manager.api.Role;
import io.pylon.manager.audit.AuditEvent;
import io.pylon.manager.audit.AuditLog;
import io.pylon.manager.auth.StoredToken;
import io.pylon.manager.auth.TokenRepository;
import io.pylon.manager.auth.User;
import io.pylon.manager.auth.UserRepository;
import io.pylon.manager.environments.Environment;
import io.pylon.manager.environments.EnvironmentStore;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** The JDBC stores, migrated by Flyway, against H2 (the default) and against a real PostgreSQL. */
class RepositoriesTest {
    private static Path h2Dir;
    private static TestPostgres postgres;
    private static Database h2;
    private static Database pg;

    @BeforeAll
    static void open() throws Exception {
        h2Dir = Files.createTempDirectory("pylon-h2");
        h2 = Database.open(Database.h2Url(h2Dir), "pylon", "", 4);
        postgres = TestPostgres.shared();
        pg = Database.open(postgres.createDatabase("repositories"), TestPostgres.USER, TestPostgres.PASSWORD, 4);
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
    void usersRoundTrip(String product, Database database) {
        assertThat(database.product()).isEqualTo(product);
        UserRepository users = new UserRepository(new Jdbc(database.dataSource()));
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        String name = "u-" + System.nanoTime();

        assertThat(users.insert(name, "$argon2id$hash", Role.VIEWER, now)).isTrue();
        assertThat(users.insert(name, "$argon2id$other", Role.ADMIN, now)).isFalse();
        Instant until = now.plusSeconds(60);
        assertThat(users.recordFailure(name, now, 3, until)).isEqualTo(UserRepository.Failure.COUNTED);
        assertThat(users.recordFailure(name, now, 3, until)).isEqualTo(UserRepository.Failure.COUNTED);
        assertThat(users.find(name).orElseThrow().failedAttempts()).isEqualTo(2);
        assertThat(users.recordFailure(name, now, 3, until)).isEqualTo(UserRepository.Failure.LOCKED);
        assertThat(users.recordFailure(name, now, 3, until)).isEqualTo(UserRepository.Failure.NOT_COUNTED);
        User locked = users.find(name).orElseThrow();
        assertThat(locked.lockedAt(now)).isTrue();
        assertThat(locked.lockedUntil()).isEqualTo(now.plusSeconds(60));
        assertThat(locked.failedAttempts()).isZero();
        assertThat(locked.createdAt()).isEqualTo(now);

        users.unlock(name, now);
        users.updateRole(name, Role.ADMIN, now);
        users.updateEnabled(name, false, now);
        User changed = users.find(name).orElseThrow();
        assertThat(changed.lockedAt(now)).isFalse();
        assertThat(changed.role()).isEqualTo(Role.ADMIN);
        assertThat(changed.enabled()).isFalse();
        assertThat(users.countOtherEnabledAdmins(name)).isZero();
        assertThat(users.list()).extracting(User::username).contains(name);
        assertThat(users.delete(name)).isTrue();
        assertThat(users.find(name)).isEmpty();
    }

    @ParameterizedTest(name = "{0}", autoCloseArguments = false)
    @MethodSource("databases")
    void concurrentFailuresAreCountedOneByOneAndLockTheAccountOnce(String product, Database database) throws Exception {
        UserRepository users = new UserRepository(new Jdbc(database.dataSource()));
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        String counted = "c-" + System.nanoTime();
        String locked = "l-" + System.nanoTime();
        users.insert(counted, "$argon2id$hash", Role.VIEWER, now);
        users.insert(locked, "$argon2id$hash", Role.VIEWER, now);

        List<UserRepository.Failure> below = Concurrently.run(12, () -> users.recordFailure(counted, now, 100, now.plusSeconds(60)));
        List<UserRepository.Failure> past = Concurrently.run(12, () -> users.recordFailure(locked, now, 5, now.plusSeconds(60)));

        assertThat(below).containsOnly(UserRepository.Failure.COUNTED);
        assertThat(users.find(counted).orElseThrow().failedAttempts()).isEqualTo(12);
        assertThat(past).filteredOn(f -> f == UserRepository.Failure.COUNTED).hasSize(4);
        assertThat(past).filteredOn(f -> f == UserRepository.Failure.LOCKED).hasSize(1);
        assertThat(past).filteredOn(f -> f == UserRepository.Failure.NOT_COUNTED).hasSize(7);
        assertThat(users.find(locked).orElseThrow().lockedAt(now)).isTrue();
    }

    @ParameterizedTest(name = "{0}", autoCloseArguments = false)
    @MethodSource("databases")
    void tokensAreReadWithTheirAccountAndDeletedWithIt(String product, Database database) {
        Jdbc jdbc = new Jdbc(database.dataSource());
        UserRepository users = new UserRepository(jdbc);
        TokenRepository tokens = new TokenRepository(jdbc);
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        String name = "t-" + System.nanoTime();
        users.insert(name, "$argon2id$hash", Role.VIEWER, now);

        tokens.insert("id-a-" + name, name, StoredToken.Kind.ACCESS, null, "hash-a-" + name, now, now.plusSeconds(60));
        tokens.insert("id-p-" + name, name, StoredToken.Kind.PERSONAL, "ci", "hash-p-" + name, now, null);

        StoredToken access = tokens.findByHash("hash-a-" + name).orElseThrow();
        assertThat(access.kind()).isEqualTo(StoredToken.Kind.ACCESS);
        assertThat(access.usableAt(now)).isTrue();
        assertThat(access.usableAt(now.plusSeconds(61))).isFalse();
        assertThat(tokens.listPersonal(name)).extracting(StoredToken::name).containsExactly("ci");
        assertThat(tokens.revokePersonal("id-p-" + name, "someone-else", now)).isFalse();
        assertThat(tokens.revokePersonal("id-p-" + name, name, now)).isTrue();
        assertThat(tokens.findByHash("hash-p-" + name).orElseThrow().usableAt(now)).isFalse();
        assertThat(tokens.listPersonal(name)).isEmpty();
        assertThat(tokens.revokeAll(name, now)).isEqualTo(1);
        assertThat(tokens.purge(now.plusSeconds(3600))).isGreaterThanOrEqualTo(2);
        assertThat(tokens.findByHash("hash-a-" + name)).isEmpty();

        tokens.insert("id-c-" + name, name, StoredToken.Kind.ACCESS, null, "hash-c-" + name, now, now.plusSeconds(60));
        users.delete(name);
        assertThat(tokens.findByHash("hash-c-" + name)).isEmpty();
    }

    @ParameterizedTest(name = "{0}", autoCloseArguments = false)
    @MethodSource("databases")
    void environmentsRoundTrip(String product, Database database) {
        EnvironmentStore store = new EnvironmentStore(new Jdbc(database.dataSource()));
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        String name = "env-" + product;
        Environment environment = new Environment(name, "test", "d", "00112233445566778899aabb",
                Map.of("worker", "http://w:8091", "cache", "http://c:8090"), now, now);

        assertThat(store.insert(environment)).isTrue();
        assertThat(store.insert(environment)).isFalse();
        assertThat(store.find(name).orElseThrow()).isEqualTo(environment);

        store.update(name, "production", "", Map.of("worker", "http://w2", "cache", "http://c2", "portal", "http://p"), now);
        store.updateId(name, "ffffffffffffffffffffffff", now);
        Environment changed = store.find(name).orElseThrow();
        assertThat(changed.type()).isEqualTo("production");
        assertThat(changed.environmentId()).isEqualTo("ffffffffffffffffffffffff");
        assertThat(changed.urls()).containsEntry("portal", "http://p").doesNotContainKey("manager");
        assertThat(store.list()).extracting(Environment::name).contains(name);
        assertThat(store.delete(name)).isTrue();
        assertThat(store.find(name)).isEmpty();
    }

    @ParameterizedTest(name = "{0}", autoCloseArguments = false)
    @MethodSource("databases")
    void auditEventsPageNewestFirst(String product, Database database) {
        AuditLog audit = new AuditLog(new Jdbc(database.dataSource()), Clock.systemUTC());
        for (int i = 0; i < 5; i++) {
            audit.record("admin", "test.event", "n:" + i, "127.0.0.1", "success");
        }

        List<AuditEvent> first = audit.recent(3, 0);
        List<AuditEvent> next = audit.recent(3, first.getLast().id());

        assertThat(first).extracting(AuditEvent::target).containsExactly("n:4", "n:3", "n:2");
        assertThat(next).extracting(AuditEvent::target).startsWith("n:1", "n:0");
        assertThat(first.getFirst().sourceAddress()).isEqualTo("127.0.0.1");
    }
}
