package io.pylon.core.diagnostics.compare;

import java.util.Arrays;

/**
 * How far one value stands from the others, robustly: the modified z-score of Iglewicz and Hoaglin,
 * {@code 0.6745 * (x - median) / MAD}, where MAD is the median of the absolute deviations from the median. One extreme
 * pod moves neither the median nor the MAD, so it cannot hide itself the way it inflates a mean and a standard
 * deviation.
 *
 * <p>When more than half of the values are equal the MAD is 0 and the formula has no scale. Then the score is the one
 * IBM's SPSS and the usual modified z-score references use: {@code (x - median) / (1.253314 * meanAD)}, with the mean
 * absolute deviation from the median (1.253314 is sqrt(pi/2), which makes it estimate the standard deviation of a
 * normal distribution, as {@code MAD / 0.6745} does). When every value is the median, every score is 0. Note that with
 * the fallback a single deviating value among {@code n} scores exactly {@code n / 1.253314}: with three pods 2.39,
 * below the usual threshold of 3.5, so a lone deviation among identical pods needs about five pods to stand out.
 *
 * <p>Immutable; built once per metric of one comparison.
 */
public final class RobustScore {
    static final double MAD_FACTOR = 0.6745;
    static final double MEAN_AD_FACTOR = 1.253314;

    private final double median;
    private final double mad;
    private final double meanAbsoluteDeviation;

    private RobustScore(double median, double mad, double meanAbsoluteDeviation) {
        this.median = median;
        this.mad = mad;
        this.meanAbsoluteDeviation = meanAbsoluteDeviation;
    }

    /** @param values at least one value */
    public static RobustScore of(double[] values) {
        if (values.length == 0) {
            throw new IllegalArgumentException("no values");
        }
        double median = median(values);
        double[] deviations = new double[values.length];
        double sum = 0;
        for (int i = 0; i < values.length; i++) {
            deviations[i] = Math.abs(values[i] - median);
            sum += deviations[i];
        }
        return new RobustScore(median, median(deviations), sum / values.length);
    }

    public double median() {
        return median;
    }

    public double mad() {
        return mad;
    }

    /** The signed score of {@code value}: positive above the median, negative below it. */
    public double score(double value) {
        double deviation = value - median;
        if (deviation == 0) {
            return 0;
        }
        if (mad > 0) {
            return MAD_FACTOR * deviation / mad;
        }
        if (meanAbsoluteDeviation > 0) {
            return deviation / (MEAN_AD_FACTOR * meanAbsoluteDeviation);
        }
        return 0;
    }

    static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int mid = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    }
}
