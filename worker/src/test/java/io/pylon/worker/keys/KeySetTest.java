package io.pylon.worker.keys;

import io.pylon.core.http.Json;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The key check answers the same whether a key was seen before or not, and a new key set forgets what it knew. */
class KeySetTest {
    private static final String KEY = "pyk_0123456789abcdefghijklmnopqrstuvwxyzABCD";

    private static String entry(String key, String status) {
        return "{\"hash\":\"" + KeySet.sha256(key) + "\",\"application\":\"app-" + key.length()
                + "\",\"subscriptions\":{\"orders\":\"" + status + "\"},\"plans\":{\"orders\":\"gold\"}}";
    }

    private static void replace(KeySet keys, long version, List<String> entries) throws Exception {
        keys.replace(Json.MAPPER.readTree("{\"version\":" + version + ",\"keys\":[" + String.join(",", entries)
                + "],\"plans\":{\"gold\":{\"requests\":10,\"per\":\"second\"}}}"));
    }

    @Test
    void aKeySeenBeforeGetsTheSameAnswerAsTheFirstTime() throws Exception {
        KeySet keys = new KeySet();
        replace(keys, 1, List.of(entry(KEY, "active")));

        KeySet.Check first = keys.check("orders", KEY);
        KeySet.Check again = keys.check("orders", KEY);

        assertThat(first.verdict()).isEqualTo(KeySet.Verdict.ALLOWED);
        assertThat(again).isEqualTo(first);
        assertThat(again.plan()).isEqualTo(new KeySet.Plan("gold", 10, java.time.Duration.ofSeconds(1)));
        assertThat(keys.check("billing", KEY).verdict()).isEqualTo(KeySet.Verdict.NOT_SUBSCRIBED);
    }

    @Test
    void eachSubscriptionStatusHasItsVerdictAndOnlyAnActiveOneItsPlan() throws Exception {
        KeySet keys = new KeySet();
        List<String> statuses = List.of("active", "pending", "suspended", "revoked");
        List<String> entries = new ArrayList<>();
        for (String status : statuses) {
            entries.add(entry(status + "-" + KEY, status));
        }
        replace(keys, 1, entries);

        for (String status : statuses) {
            KeySet.Check check = keys.check("orders", status + "-" + KEY);
            assertThat(check.verdict()).as(status).isEqualTo(switch (status) {
                case "active" -> KeySet.Verdict.ALLOWED;
                case "pending" -> KeySet.Verdict.PENDING;
                case "suspended" -> KeySet.Verdict.SUSPENDED;
                default -> KeySet.Verdict.REVOKED;
            });
            assertThat(check.application()).isEqualTo("app-" + (status + "-" + KEY).length());
            assertThat(check.plan() != null).as(status).isEqualTo(status.equals("active"));
            KeySet.Check elsewhere = keys.check("billing", status + "-" + KEY);
            assertThat(elsewhere.verdict()).isEqualTo(KeySet.Verdict.NOT_SUBSCRIBED);
            assertThat(elsewhere.plan()).isNull();
        }
    }

    @Test
    void aKeyThatDiffersByOneCharacterFromAKeySeenIsUnknown() throws Exception {
        KeySet keys = new KeySet();
        replace(keys, 1, List.of(entry(KEY, "active")));
        keys.check("orders", KEY);

        String last = KEY.substring(0, KEY.length() - 1) + "E";
        String first = "q" + KEY.substring(1);
        assertThat(keys.check("orders", last).verdict()).isEqualTo(KeySet.Verdict.UNKNOWN);
        assertThat(keys.check("orders", first).verdict()).isEqualTo(KeySet.Verdict.UNKNOWN);
        assertThat(keys.check("orders", KEY + "x").verdict()).isEqualTo(KeySet.Verdict.UNKNOWN);
        assertThat(keys.check("orders", KEY.substring(1)).verdict()).isEqualTo(KeySet.Verdict.UNKNOWN);
    }

    @Test
    void aNewKeySetDecidesAtOnceForKeysSeenBefore() throws Exception {
        KeySet keys = new KeySet();
        String other = KEY.replace('0', '9');
        replace(keys, 1, List.of(entry(KEY, "active"), entry(other, "active")));
        assertThat(keys.check("orders", KEY).verdict()).isEqualTo(KeySet.Verdict.ALLOWED);
        assertThat(keys.check("orders", other).verdict()).isEqualTo(KeySet.Verdict.ALLOWED);

        replace(keys, 2, List.of(entry(KEY, "suspended")));

        assertThat(keys.check("orders", KEY).verdict()).isEqualTo(KeySet.Verdict.SUSPENDED);
        assertThat(keys.check("orders", other).verdict()).isEqualTo(KeySet.Verdict.UNKNOWN);
    }

    @Test
    void moreKeysInUseThanTheRecentTableHoldsAreAllStillChecked() throws Exception {
        KeySet keys = new KeySet();
        List<String> presented = new ArrayList<>();
        List<String> entries = new ArrayList<>();
        for (int i = 0; i < RecentKeys.SLOTS * 2; i++) {
            String key = "pyk_" + i + "_" + KEY;
            presented.add(key);
            entries.add(entry(key, i % 2 == 0 ? "active" : "revoked"));
        }
        replace(keys, 1, entries);

        for (int pass = 0; pass < 2; pass++) {
            for (int i = 0; i < presented.size(); i++) {
                assertThat(keys.check("orders", presented.get(i)).verdict())
                        .isEqualTo(i % 2 == 0 ? KeySet.Verdict.ALLOWED : KeySet.Verdict.REVOKED);
            }
        }
        assertThat(keys.check("orders", "pyk_unknown").verdict()).isEqualTo(KeySet.Verdict.UNKNOWN);
    }

    @Test
    void theRecentTableMatchesOnlyTheWholeKeyAndOverlongKeysAreRefused() throws Exception {
        RecentKeys<String> recent = new RecentKeys<>();
        recent.remember(KEY, "app");
        assertThat(recent.get(KEY)).isEqualTo("app");
        assertThat(recent.get(KEY.toLowerCase(java.util.Locale.ROOT))).isNull();

        KeySet keys = new KeySet();
        replace(keys, 1, List.of(entry(KEY, "active")));
        assertThat(keys.check("orders", "x".repeat(KeySet.MAX_KEY_LENGTH + 1)).verdict())
                .isEqualTo(KeySet.Verdict.UNKNOWN);
    }
}
