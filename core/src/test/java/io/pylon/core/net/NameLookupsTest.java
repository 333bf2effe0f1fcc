package io.pylon.core.net;

import io.pylon.core.testing.TestNames;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Lookups of names answered in this JVM ({@link TestNames}: no DNS traffic): a name found, one not found, one whose
 * DNS server never answers (the lookup ends at its bound, the caller's own or the thread's), twenty callers on one name
 * sharing one lookup, and literals, which are never looked up.
 */
class NameLookupsTest {
    @Test
    void aNameFoundAndOneNotFound() throws Exception {
        assertThat(NameLookups.SHARED.lookUp("lo-found.pylon-test", Duration.ofSeconds(5)))
                .containsExactly(InetAddress.getByAddress("lo-found.pylon-test", new byte[] {127, 0, 0, 1}));
        assertThatThrownBy(() -> NameLookups.SHARED.lookUp("nx-missing.pylon-test", Duration.ofSeconds(5)))
                .isInstanceOf(UnknownHostException.class).hasMessage("nx-missing.pylon-test: not found");
    }

    @Test
    void aLookupWithoutAnswerEndsAtTheThreadsBound() {
        long start = System.nanoTime();
        assertThatThrownBy(() -> NameLookups.call(Duration.ofMillis(300),
                () -> NameLookups.SHARED.lookUp("hung-bound.pylon-test")))
                .isInstanceOf(UnknownHostException.class)
                .hasMessage("hung-bound.pylon-test: no answer from DNS within 300 ms");
        assertThat((System.nanoTime() - start) / 1_000_000).isBetween(250L, 3_000L);
    }

    @Test
    void callersOfOneNameShareOneLookup() {
        List<CompletableFuture<Throwable>> callers = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            callers.add(CompletableFuture.supplyAsync(() -> {
                try {
                    NameLookups.SHARED.lookUp("hung-shared.pylon-test", Duration.ofMillis(500));
                    return null;
                } catch (UnknownHostException e) {
                    return e;
                }
            }));
        }
        for (CompletableFuture<Throwable> caller : callers) {
            assertThat(caller.join()).isInstanceOf(UnknownHostException.class);
        }
        assertThat(TestNames.lookups("hung-shared.pylon-test")).isEqualTo(1);
    }

    @Test
    void literalsAreReadNotLookedUp() throws Exception {
        assertThat(NameLookups.SHARED.lookUp("127.0.0.9", Duration.ofMillis(1))[0].getHostAddress()).isEqualTo("127.0.0.9");
        assertThat(NameLookups.SHARED.lookUp("::1", Duration.ofMillis(1))[0].isLoopbackAddress()).isTrue();
        assertThat(NameLookups.isLiteral("10.0.0.1")).isTrue();
        assertThat(NameLookups.isLiteral("256.0.0.1")).isFalse();
        assertThat(NameLookups.isLiteral("1.2.3")).isFalse();
        assertThat(NameLookups.isLiteral("orders.svc")).isFalse();
    }
}
