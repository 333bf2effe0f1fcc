package io.pylon.distribution.cli;

import org.jspecify.annotations.Nullable;

import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;

/** Renders one frame of {@code pylon top}: a title line, a key line and the pods sorted, cut to the window. */
public final class TopScreen {
    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss");

    private TopScreen() {
    }

    /** The frame's lines, none longer than {@code width}, at most {@code height} of them. */
    public static List<String> render(String environment, List<PodSnapshot> pods, TopSort sort, @Nullable LocalTime updated,
                                      @Nullable String problem, int width, int height, boolean colour) {
        List<String> lines = new ArrayList<>();
        long failed = pods.stream().filter(PodSnapshot::failed).count();
        lines.add("pylon top - environment " + Text.printable(environment) + " - " + pods.size() + " pods, " + failed
                + " failing - updated " + (updated == null ? "never" : CLOCK.format(updated)) + " - sorted by " + sort.label);
        lines.add(problem != null ? "! " + Text.printable(problem)
                : "keys: n name  h heap  c cpu  t threads  b blocked  o connections  p pending  q quit");
        lines.add("");
        Table table = new Table(List.of("POD", "MODULE", "HEAP%", "HEAP", "CPU", "THREADS", "BLOCKED", "CONNS", "PENDING", "FLAGS"));
        for (PodSnapshot pod : pods.stream().sorted(sort.order).toList()) {
            String flags = pod.flags();
            table.addValues(pod.name() == null ? "(" + pod.module() + ")" : pod.name(), pod.module(),
                    Units.percent(pod.heapFraction()),
                    pod.heapUsed() == null ? null : Units.bytes(pod.heapUsed()) + "/" + Units.bytes(pod.heapMax()),
                    Units.percent(pod.cpu()), pod.threads(), pod.blocked(), pod.connections(), pod.pending(),
                    new Table.Cell(flags.isEmpty() ? "ok" : flags, flags.isEmpty() ? Table.Colour.GREEN : Table.Colour.RED));
        }
        lines.addAll(table.lines(true, colour));
        List<String> cut = new ArrayList<>();
        for (String line : lines.subList(0, Math.min(lines.size(), Math.max(1, height)))) {
            cut.add(colour ? line : clip(line, width));
        }
        return cut;
    }

    private static String clip(String line, int width) {
        return width > 0 && line.length() > width ? line.substring(0, width) : line;
    }
}
