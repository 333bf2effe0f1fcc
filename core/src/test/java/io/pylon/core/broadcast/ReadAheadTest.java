package io.pylon.core.broadcast;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ReadAheadTest {

    @Test
    void reservationsStayWithinTheBudgetAndComeBackWhenReleased() {
        ReadAhead readAhead = new ReadAhead(1000);

        assertThat(readAhead.tryReserve(600)).isTrue();
        assertThat(readAhead.tryReserve(500)).isFalse();
        assertThat(readAhead.tryReserve(400)).isTrue();
        assertThat(readAhead.tryReserve(1)).isFalse();
        readAhead.release(600);
        assertThat(readAhead.available()).isEqualTo(600);
        assertThat(readAhead.tryReserve(600)).isTrue();
    }

    @Test
    void anAnswerOfUnknownOrHugeLengthIsNeverReadAhead() {
        ReadAhead readAhead = new ReadAhead(1000);

        assertThat(readAhead.tryReserve(-1)).isFalse();
        assertThat(readAhead.tryReserve(1001)).isFalse();
        assertThat(readAhead.tryReserve(Long.MAX_VALUE)).isFalse();
        assertThat(readAhead.available()).isEqualTo(1000);
    }
}
