package io.pylon.core.diagnostics.compare;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Finds the outliers of a comparison: for every {@link CompareMetric} reported by at least {@link #MIN_PODS} pods, the
 * pods whose robust score exceeds the threshold in either direction and whose value is at least the metric's
 * {@link CompareMetric#minDeviation()} away from the median. Sorted by the size of the score, largest first (then by
 * pod and metric, so equal scores keep one order). Stateless.
 */
public final class Outliers {
    /** Fewer pods have no majority that could be "normal": two pods that differ are simply different. */
    public static final int MIN_PODS = 3;

    private Outliers() {
    }

    public static List<Outlier> find(List<PodFacts> pods, double threshold) {
        List<Outlier> outliers = new ArrayList<>();
        for (CompareMetric metric : CompareMetric.values()) {
            List<PodFacts> reporting = pods.stream().filter(p -> p.metrics().containsKey(metric.key())).toList();
            if (reporting.size() < MIN_PODS) {
                continue;
            }
            double[] values = reporting.stream().mapToDouble(p -> p.metrics().get(metric.key())).toArray();
            RobustScore robust = RobustScore.of(values);
            for (int i = 0; i < values.length; i++) {
                double score = robust.score(values[i]);
                if (Math.abs(score) > threshold && Math.abs(values[i] - robust.median()) >= metric.minDeviation()) {
                    outliers.add(new Outlier(reporting.get(i).podName(), metric, values[i], robust.median(), robust.mad(), score));
                }
            }
        }
        outliers.sort(Comparator.comparingDouble((Outlier o) -> -Math.abs(o.score()))
                .thenComparing(Outlier::podName).thenComparing(o -> o.metric().key()));
        return outliers;
    }
}
