package io.pylon.core.diagnostics;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code histogram}: the heap's class histogram without a dump ({@code ?top=50}, {@code ?live=false} to skip the full
 * collection that counting only live objects needs). In a broadcast, {@link FleetHistogram} sets each pod's classes
 * next to the fleet median and flags outliers. Heavy: it walks the heap.
 *
 * <p>Threading: stateless besides the immutable flag factor; calls run concurrently within the heavy-call limit.
 */
final class HistogramSection implements DiagnosticSection {
    private final double flagFactor;

    HistogramSection(double flagFactor) {
        this.flagFactor = flagFactor;
    }

    @Override
    public String name() {
        return "histogram";
    }

    /** Only a histogram of live objects forces a full collection; {@code live=false} walks the heap and collects nothing. */
    @Override
    public boolean rateLimited(String method, DiagnosticsQuery query) {
        return "GET".equals(method) && query.bool("live", true);
    }

    @Override
    public boolean heavy() {
        return true;
    }

    @Override
    public boolean inAll() {
        return false;
    }

    @Override
    public void validate(String method, DiagnosticsQuery query) {
        query.integer("top", 50, 1, 1000);
        query.bool("live", true);
    }

    @Override
    public Object collect() throws Exception {
        return collect(DiagnosticsQuery.EMPTY);
    }

    @Override
    public Object collect(DiagnosticsQuery query) throws Exception {
        int top = query.integer("top", 50, 1, 1000);
        boolean live = query.bool("live", true);
        long t0 = System.nanoTime();
        ClassHistogram.Result result = ClassHistogram.take(live, top);
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("live", live);
        answer.put("top", top);
        answer.put("tookMillis", (System.nanoTime() - t0) / 1_000_000);
        answer.put("classCount", result.classCount());
        answer.put("totalInstances", result.totalInstances());
        answer.put("totalBytes", result.totalBytes());
        answer.put("classes", result.top());
        return answer;
    }

    @Override
    public boolean aggregates() {
        return true;
    }

    @Override
    public Object aggregate(List<JsonNode> pods) {
        return FleetHistogram.compare(pods, key(), flagFactor);
    }
}
