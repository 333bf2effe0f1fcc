package io.pylon.core.diagnostics.compare;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class RobustScoreTest {
    @Test
    void oneExtremeValueMovesNeitherTheMedianNorTheMad() {
        RobustScore score = RobustScore.of(new double[] {10, 11, 12, 13, 1000});
        assertThat(score.median()).isEqualTo(12);
        assertThat(score.mad()).isEqualTo(1);
        assertThat(score.score(1000)).isCloseTo(0.6745 * 988, within(1e-9));
        assertThat(score.score(11)).isCloseTo(-0.6745, within(1e-9));
    }

    @Test
    void aZeroMadFallsBackToTheScaledMeanAbsoluteDeviation() {
        // BLOCKED threads: 41 on one pod, 0 on nine
        double[] values = {0, 0, 0, 0, 0, 0, 0, 0, 0, 41};
        RobustScore score = RobustScore.of(values);
        assertThat(score.mad()).isZero();
        assertThat(score.score(41)).isCloseTo(41 / (1.253314 * 4.1), within(1e-9));
        assertThat(score.score(41)).isGreaterThan(3.5);
        assertThat(score.score(0)).isZero();
    }

    @Test
    void withThreePodsALoneDeviationUnderAZeroMadScoresThreeOverTheFactor() {
        RobustScore score = RobustScore.of(new double[] {0, 0, 7});
        assertThat(score.score(7)).isCloseTo(3 / 1.253314, within(1e-9)).isLessThan(3.5);
    }

    @Test
    void equalValuesScoreZero() {
        RobustScore score = RobustScore.of(new double[] {5, 5, 5});
        assertThat(score.score(5)).isZero();
        assertThat(score.mad()).isZero();
    }

    @Test
    void theMedianOfAnEvenCountIsTheMeanOfTheMiddleTwo() {
        assertThat(RobustScore.of(new double[] {4, 1, 3, 2}).median()).isEqualTo(2.5);
    }
}
