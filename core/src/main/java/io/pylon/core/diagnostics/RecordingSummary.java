package io.pylon.core.diagnostics;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingFile;
import org.jspecify.annotations.Nullable;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What an operator without Mission Control wants from a recording, computed with {@code jdk.jfr.consumer}: the
 * methods most often on top of the execution samples, the classes allocated most (by sampled weight), the GC pauses,
 * and the monitors threads waited longest to enter. Stateless; one pass over the file.
 */
final class RecordingSummary {
    private static final int TOP = 10;

    private RecordingSummary() {
    }

    static Map<String, Object> of(Path file) throws IOException {
        Map<String, Long> hotMethods = new HashMap<>();
        Map<String, Long> allocations = new HashMap<>();
        Map<String, Long> contentionNanos = new HashMap<>();
        Map<String, Long> contentionCount = new HashMap<>();
        long samples = 0;
        long gcCount = 0;
        long gcPauseNanos = 0;
        long gcLongestNanos = 0;
        long events = 0;
        try (RecordingFile recording = new RecordingFile(file)) {
            while (recording.hasMoreEvents()) {
                RecordedEvent event = recording.readEvent();
                events++;
                switch (event.getEventType().getName()) {
                    case "jdk.ExecutionSample" -> {
                        samples++;
                        String top = topMethod(event.getStackTrace());
                        if (top != null) {
                            hotMethods.merge(top, 1L, Long::sum);
                        }
                    }
                    case "jdk.ObjectAllocationSample" -> {
                        if (event.hasField("objectClass") && event.getClass("objectClass") != null) {
                            allocations.merge(event.getClass("objectClass").getName(), event.getLong("weight"), Long::sum);
                        }
                    }
                    case "jdk.GarbageCollection" -> {
                        gcCount++;
                        long pause = event.getDuration("sumOfPauses").toNanos();
                        gcPauseNanos += pause;
                        gcLongestNanos = Math.max(gcLongestNanos, event.getDuration("longestPause").toNanos());
                    }
                    case "jdk.JavaMonitorEnter" -> {
                        String monitor = event.getClass("monitorClass") == null ? "?" : event.getClass("monitorClass").getName();
                        contentionNanos.merge(monitor, event.getDuration().toNanos(), Long::sum);
                        contentionCount.merge(monitor, 1L, Long::sum);
                    }
                    default -> {
                        // other events are in the file for Mission Control
                    }
                }
            }
        }
        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("events", events);
        summary.put("executionSamples", samples);
        summary.put("hotMethods", top(hotMethods, "method", "samples"));
        summary.put("allocationByClass", top(allocations, "className", "bytes"));
        Map<String, Object> gc = new LinkedHashMap<>();
        gc.put("collections", gcCount);
        gc.put("totalPauseMillis", millis(gcPauseNanos));
        gc.put("longestPauseMillis", millis(gcLongestNanos));
        summary.put("gcPauses", gc);
        List<Map<String, Object>> locks = new ArrayList<>();
        contentionNanos.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed()).limit(TOP)
                .forEach(e -> {
                    Map<String, Object> row = new LinkedHashMap<>();
                    row.put("monitorClass", e.getKey());
                    row.put("waits", contentionCount.get(e.getKey()));
                    row.put("totalMillis", millis(e.getValue()));
                    locks.add(row);
                });
        summary.put("lockContention", locks);
        return summary;
    }

    private static @Nullable String topMethod(RecordedStackTrace stack) {
        if (stack == null) {
            return null;
        }
        for (RecordedFrame frame : stack.getFrames()) {
            if (frame.isJavaFrame()) {
                return frame.getMethod().getType().getName() + "." + frame.getMethod().getName();
            }
        }
        return null;
    }

    private static List<Map<String, Object>> top(Map<String, Long> counts, String keyName, String valueName) {
        List<Map<String, Object>> rows = new ArrayList<>();
        counts.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed()
                        .thenComparing(Map.Entry.comparingByKey(Comparator.naturalOrder()))).limit(TOP)
                .forEach(e -> {
                    Map<String, Object> row = new LinkedHashMap<>();
                    row.put(keyName, e.getKey());
                    row.put(valueName, e.getValue());
                    rows.add(row);
                });
        return rows;
    }

    private static double millis(long nanos) {
        return Math.round(Duration.ofNanos(nanos).toNanos() / 1_000.0) / 1_000.0;
    }
}
