package io.pylon.core.http;

import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A read budget: spent up to its amount, overspent with an exception, absent outside begin and end, per thread. */
class ReadBudgetTest {
    @Test
    void aBudgetIsSpentUpToItsAmountAndOverspendingThrows() {
        ReadBudget.begin(10);
        try {
            ReadBudget.spend(6);
            ReadBudget.spend(4);
            assertThatThrownBy(() -> ReadBudget.spend(1)).isInstanceOf(ReadBudget.ExceededException.class);
        } finally {
            ReadBudget.end();
        }
    }

    @Test
    void withoutABudgetReadsAreUnbounded() {
        ReadBudget.begin(1);
        ReadBudget.end();
        assertThatCode(() -> ReadBudget.spend(Integer.MAX_VALUE)).doesNotThrowAnyException();
    }

    @Test
    void aBudgetBelongsToTheThreadThatBeganIt() throws Exception {
        ReadBudget.begin(1);
        try {
            AtomicReference<Throwable> other = new AtomicReference<>();
            Thread thread = Thread.ofVirtual().start(() -> {
                try {
                    ReadBudget.spend(1_000);
                } catch (Throwable t) {
                    other.set(t);
                }
            });
            thread.join();
            assertThatCode(() -> {
                if (other.get() != null) {
                    throw other.get();
                }
            }).doesNotThrowAnyException();
        } finally {
            ReadBudget.end();
        }
    }
}
