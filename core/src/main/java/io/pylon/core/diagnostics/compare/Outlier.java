package io.pylon.core.diagnostics.compare;

/**
 * One pod standing out on one metric: "worker-17: BLOCKED threads 41, median 0".
 *
 * @param score the signed robust score ({@link RobustScore}): positive above the median, negative below
 */
public record Outlier(String podName, CompareMetric metric, double value, double median, double mad, double score) {
}
