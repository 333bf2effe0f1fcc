package io.pylon.core.diagnostics;

import org.jspecify.annotations.Nullable;

import javax.management.MBeanServer;
import javax.management.ObjectName;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;

/**
 * The JDK's {@code GC.class_histogram} diagnostic command, run through the DiagnosticCommand MBean (no dump written)
 * and parsed. {@code live=true} counts reachable objects only, after a full collection; {@code live=false}
 * ({@code -all}) counts every object on the heap and collects nothing. Stateless; the MBean server is thread-safe.
 */
final class ClassHistogram {
    private static final String MBEAN = "com.sun.management:type=DiagnosticCommand";

    /** One line of the histogram. */
    record Entry(int rank, String className, @Nullable String module, long instances, long bytes) {
    }

    /** The top entries and the heap totals over every class. */
    record Result(List<Entry> top, long totalInstances, long totalBytes, int classCount) {
    }

    private ClassHistogram() {
    }

    static Result take(boolean live, int top) throws Exception {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        String[] args = live ? new String[0] : new String[] {"-all"};
        String text = (String) server.invoke(new ObjectName(MBEAN), "gcClassHistogram",
                new Object[] {args}, new String[] {String[].class.getName()});
        return parse(text, top);
    }

    /**
     * Parses the command's text: a header, lines {@code "   1:   123   4567  java.lang.String (java.base@21)"} and
     * {@code "Total   123   4567"}.
     */
    static Result parse(String text, int top) {
        List<Entry> entries = new ArrayList<>(top);
        long totalInstances = 0;
        long totalBytes = 0;
        int classes = 0;
        for (String line : text.split("\n")) {
            String[] parts = line.trim().split("\\s+");
            if (parts.length >= 4 && parts[0].endsWith(":")) {
                classes++;
                if (entries.size() < top) {
                    String module = parts.length >= 5 ? parts[4].replaceAll("^\\(|\\)$", "") : null;
                    entries.add(new Entry(Integer.parseInt(parts[0].substring(0, parts[0].length() - 1)), parts[3],
                            module, Long.parseLong(parts[1]), Long.parseLong(parts[2])));
                }
            } else if (parts.length == 3 && parts[0].equals("Total")) {
                totalInstances = Long.parseLong(parts[1]);
                totalBytes = Long.parseLong(parts[2]);
            }
        }
        return new Result(entries, totalInstances, totalBytes, classes);
    }
}
