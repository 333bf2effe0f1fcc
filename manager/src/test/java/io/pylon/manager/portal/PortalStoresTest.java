package io.pylon.manager.portal;

import io.pylon.core.testing.TestPostgres;
import io.pylon.core.testing.TestPods;
import io.pylon.manager.db.Database;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** The Portal's tables, migrated by Flyway, against H2 and a real PostgreSQL: what Workers receive as the key set. */
class PortalStoresTest {
    private static Path h2Dir;
    private static Database h2;
    private static Database pg;

    @BeforeAll
    static void open() throws Exception {
        h2Dir = Files.createTempDirectory("pylon-h2-portal");
        h2 = Database.open(Database.h2Url(h2Dir), "pylon", "", 4);
        TestPostgres postgres = TestPostgres.shared();
        pg = Database.open(postgres.createDatabase("portal"), TestPostgres.USER, TestPostgres.PASSWORD, 4);
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
    void theFifthFailedSignInLocksTheDeveloperAndAFailureOfNoDeveloperChangesNothing(String product, Database database) {
        DeveloperStore developers = new DeveloperStore(database.jdbc());
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        String dev = UUID.randomUUID().toString();
        developers.insert(new Developer(dev, "lock-" + product + "@example.com", "hash", "active", 0, null, now));
        Instant until = now.plus(15, ChronoUnit.MINUTES);
        for (int i = 1; i <= 4; i++) {
            developers.recordFailure(dev, 5, now, until);
            assertThat(developers.byId(dev).orElseThrow().failedAttempts()).isEqualTo(i);
        }
        developers.recordFailure("-", 5, now, until);
        assertThat(developers.byId(dev).orElseThrow().lockedAt(now)).isFalse();
        developers.recordFailure(dev, 5, now, until);
        Developer locked = developers.byId(dev).orElseThrow();
        assertThat(locked.lockedAt(now)).isTrue();
        assertThat(locked.failedAttempts()).isZero();
        developers.resetFailures(dev);
        assertThat(developers.byId(dev).orElseThrow().lockedAt(now)).isFalse();
    }

    @ParameterizedTest(name = "{0}", autoCloseArguments = false)
    @MethodSource("databases")
    void keySetFollowsKeysSubscriptionsAndDevelopers(String product, Database database) {
        DeveloperStore developers = new DeveloperStore(database.jdbc());
        ApplicationStore apps = new ApplicationStore(database.jdbc());
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        String dev = UUID.randomUUID().toString();
        assertThat(developers.insert(new Developer(dev, product + "@example.com", "hash", "active", 0, null, now))).isTrue();
        assertThat(developers.insert(new Developer(UUID.randomUUID().toString(), product + "@example.com", "h",
                "active", 0, null, now))).as("e-mail unique").isFalse();
        String app = UUID.randomUUID().toString();
        apps.insertApplication(new ApplicationStore.Application(app, dev, "shop", now));
        long before = apps.version();
        String subscription = UUID.randomUUID().toString();
        assertThat(apps.insertSubscription(subscription, app, "orders", "active", now)).isTrue();
        assertThat(apps.insertSubscription(UUID.randomUUID().toString(), app, "orders", "active", now)).isFalse();
        String key = ApiKeys.newKey();
        String keyId = UUID.randomUUID().toString();
        apps.insertKey(keyId, app, ApiKeys.sha256(key), ApiKeys.display(key), now);

        ApplicationStore.KeySetRead set = apps.keySet();
        assertThat(set.version()).isGreaterThan(before);
        ApplicationStore.KeyEntry entry = set.keys().stream()
                .filter(e -> e.applicationId().equals(app)).findFirst().orElseThrow();
        assertThat(entry.hash()).isEqualTo(ApiKeys.sha256(key)).doesNotContain(key);
        assertThat(entry.subscriptions()).isEqualTo(Map.of("orders", "active"));
        assertThat(entry.plans()).isEmpty();

        // a plan given to the subscription travels with the key set, and its definition beside it
        PlanStore plans = new PlanStore(database.jdbc());
        assertThat(plans.put(new Plan("gold-" + product, 5, "minute", "orders"), now)).isTrue();
        assertThat(plans.put(new Plan("gold-" + product, 7, "second", "orders"), now)).as("changed").isFalse();
        long beforePlan = apps.version();
        assertThat(plans.assign(subscription, "gold-" + product, now)).isTrue();
        assertThat(apps.version()).isGreaterThan(beforePlan);
        ApplicationStore.KeySetRead withPlan = apps.keySet();
        assertThat(withPlan.keys().stream().filter(e -> e.applicationId().equals(app)).findFirst().orElseThrow()
                .plans()).isEqualTo(Map.of("orders", "gold-" + product));
        assertThat(withPlan.plans()).contains(new Plan("gold-" + product, 7, "second", "orders"));
        assertThat(plans.holders("gold-" + product)).isEqualTo(1);
        assertThat(plans.holdersOutside("gold-" + product, "orders")).isZero();
        assertThat(apps.subscription(subscription).orElseThrow().plan()).isEqualTo("gold-" + product);

        apps.setSubscriptionStatus(subscription, "suspended", now);
        assertThat(apps.keySet().keys().stream().filter(e -> e.applicationId().equals(app)).findFirst()
                .orElseThrow().subscriptions()).isEqualTo(Map.of("orders", "suspended"));

        developers.setStatus(dev, "disabled", now);
        assertThat(apps.keySet().keys()).noneMatch(e -> e.applicationId().equals(app));
        developers.setStatus(dev, "active", now);

        long version = apps.version();
        assertThat(apps.revokeKey(app, keyId, now)).isTrue();
        assertThat(apps.revokeKey(app, keyId, now)).as("once").isFalse();
        assertThat(apps.version()).isGreaterThan(version);
        assertThat(apps.keySet().keys()).noneMatch(e -> e.applicationId().equals(app));
        assertThat(apps.keys(app)).singleElement().satisfies(k -> {
            assertThat(k.prefix()).isEqualTo(key.substring(0, ApiKeys.DISPLAY_LENGTH));
            assertThat(k.revokedAt()).isNotNull();
        });
    }
}
