package io.pylon.distribution.cli;

import org.jspecify.annotations.Nullable;

import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;

/**
 * Renders one frame of {@code pylon top}: a title line, a key line and the pods sorted, cut to the window. Four pods
 * with ordinary figures fit 80 columns; a narrower window or a long flag cuts lines at its edge instead of wrapping
 * them (a wrapped line would push the frame down and scroll the screen).
 */
public final class TopScreen {
    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss");

    private TopScreen() {
    }

    /** The frame's lines, none longer than {@code width}, at most {@code height} of them. */
    public static List<String> render(String environment, List<PodSnapshot> pods, TopSort sort, @Nullable LocalTime updated,
                                      @Nullable String problem, int width, int height, boolean colour) {
        List<String> lines = new ArrayList<>();
        long failed = pods.stream().filter(PodSnapshot::failed).count();
        lines.add("pylon top - " + Text.printable(environment) + " - " + pods.size() + " pods, " + failed
                + " failing - updated " + (updated == null ? "never" : CLOCK.format(updated)) + " - sorted by " + sort.label);
        lines.add(problem != null ? "! " + Text.printable(problem)
                : "sort: n name  h heap  c cpu  t threads  b blocked  o conns  p pending   q quit");
        lines.add("");
        // no MODULE column: the pod's name says it (worker-0), and the line fits 80 columns
        Table table = new Table(List.of("POD", "HEAP%", "HEAP", "CPU", "THREADS", "BLOCKED", "CONNS", "PENDING", "FLAGS"));
        for (PodSnapshot pod : pods.stream().sorted(sort.order).toList()) {
            String flags = pod.flags();
            table.addValues(pod.name() == null ? "(" + pod.module() + ")" : pod.name(),
                    Units.percent(pod.heapFraction()),
                    pod.heapUsed() == null ? null : Units.bytes(pod.heapUsed()) + "/" + Units.bytes(pod.heapMax()),
                    Units.percent(pod.cpu()), pod.threads(), pod.blocked(), pod.connections(), pod.pending(),
                    new Table.Cell(flags.isEmpty() ? "ok" : flags, flags.isEmpty() ? Table.Colour.GREEN : Table.Colour.RED));
        }
        lines.addAll(table.lines(true, colour, 2));
        List<String> cut = new ArrayList<>();
        for (String line : lines.subList(0, Math.min(lines.size(), Math.max(1, height)))) {
            cut.add(clip(line, width));
        }
        return cut;
    }

    /** {@code line} cut after {@code width} visible characters; colour escapes do not count and are closed. */
    static String clip(String line, int width) {
        if (width <= 0) {
            return line;
        }
        StringBuilder out = new StringBuilder();
        int visible = 0;
        boolean coloured = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == '\u001b') {
                int end = line.indexOf('m', i);
                if (end < 0) {
                    break;
                }
                String escape = line.substring(i, end + 1);
                out.append(escape);
                coloured = !escape.equals("\u001b[0m");
                i = end;
                continue;
            }
            if (visible == width) {
                break;
            }
            out.append(c);
            visible++;
        }
        if (coloured) {
            out.append("\u001b[0m");
        }
        return out.toString();
    }
}
