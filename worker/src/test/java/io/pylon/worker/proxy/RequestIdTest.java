package io.pylon.worker.proxy;

import io.helidon.http.HeaderNames;
import io.helidon.http.WritableHeaders;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Set;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** A request's identifier: new and unique, or a trusted proxy's when it is one a log line can hold. */
class RequestIdTest {
    @Test
    void aNewIdentifierIsAVersion4UuidNeverRepeated() {
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 100_000; i++) {
            String id = RequestId.generate();
            UUID uuid = UUID.fromString(id);
            assertThat(uuid.version()).isEqualTo(4);
            assertThat(uuid.variant()).isEqualTo(2);
            assertThat(id).hasSize(36);
            assertThat(seen.add(id)).as(id).isTrue();
        }
    }

    @Test
    void aTrustedProxysWellFormedValueIsKeptAnyoneElsesReplaced() {
        WritableHeaders<?> headers = WritableHeaders.create();
        headers.add(HeaderNames.create("X-Request-Id"), "lb-7f3a:1");
        assertThat(RequestId.of(headers, () -> true)).isEqualTo("lb-7f3a:1");
        assertThat(RequestId.of(headers, () -> false)).isNotEqualTo("lb-7f3a:1").hasSize(36);

        WritableHeaders<?> twice = WritableHeaders.create();
        twice.add(HeaderNames.create("X-Request-Id"), "a", "b");
        assertThat(RequestId.of(twice, () -> true)).as("two values: neither is the request's").hasSize(36);

        boolean[] asked = {false};
        RequestId.of(WritableHeaders.create(), () -> asked[0] = true);
        assertThat(asked[0]).as("trust is looked up only for a request that carries the header").isFalse();
    }

    @Test
    void onlyValuesALogLineCanHoldAsTheyAreAreWellFormed() {
        assertThat(RequestId.isWellFormed("8c6f1d2e-5b7a-4c3d-9e1f-2a3b4c5d6e7f")).isTrue();
        assertThat(RequestId.isWellFormed("01ARZ3NDEKTSV4RRFFQ69G5FAV")).isTrue();
        assertThat(RequestId.isWellFormed("Root=1-67891233-abcdef012345678912345678")).isTrue();
        assertThat(RequestId.isWellFormed("a+b/c==_@x.y")).isTrue();
        assertThat(RequestId.isWellFormed("x".repeat(RequestId.MAX_LENGTH))).isTrue();

        assertThat(RequestId.isWellFormed("x".repeat(RequestId.MAX_LENGTH + 1))).isFalse();
        assertThat(RequestId.isWellFormed("")).isFalse();
        assertThat(RequestId.isWellFormed(null)).isFalse();
        for (String bad : new String[]{"a b", "a\"b", "a,b", "a\tb", "a\u0000b", "a\u00e9b", "a}b", "a\\b"}) {
            assertThat(RequestId.isWellFormed(bad)).as(bad).isFalse();
        }
    }
}
