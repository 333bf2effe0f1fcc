package io.pylon.distribution.cli;

import org.jspecify.annotations.Nullable;

import com.fasterxml.jackson.databind.JsonNode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code pylon audit [--limit N] [--follow]}: the newest audit events, oldest of them first (as a log reads), in
 * aligned columns under a header; {@code --follow} then polls for newer ones until interrupted, in the same columns.
 * {@code -o json} prints one event per line (JSONL). An event without a source address (one the platform itself
 * recorded, such as its first administrator) shows "-".
 */
@Command(name = "audit", description = "Prints the audit log's newest events; --follow keeps printing new ones (admin role).")
public final class AuditCommand implements Callable<Integer> {
    private final CliIo io;

    @Option(names = "--limit", defaultValue = "20", description = "How many of the newest events to show first (1-1000, default 20).")
    int limit;

    @Option(names = {"-f", "--follow"}, description = "Keep polling for new events.")
    boolean follow;

    @Option(names = "--poll", paramLabel = "DURATION", defaultValue = "2s", description = "How often --follow asks (default 2s).")
    String poll;

    @Option(names = {"-o", "--output"}, defaultValue = "text", description = "text (default) or json (one event per line).")
    String format;

    @Mixin
    ContextOptions contextOptions;

    static final List<String> HEADERS = List.of("TIME", "ACTOR", "ACTION", "TARGET", "OUTCOME", "SOURCE");
    /** Column widths of the text output, set by the first page and kept, so that --follow's lines stay aligned. */
    private int @Nullable [] widths;

    public AuditCommand(CliIo io) {
        this.io = io;
    }

    @Override
    public Integer call() throws InterruptedException {
        if (limit < 1 || limit > 1000) {
            throw CliException.usage("--limit must be from 1 to 1000.");
        }
        if (!format.equals("text") && !format.equals("json")) {
            throw CliException.usage("-o must be text or json for audit.");
        }
        Duration every = DurationOption.parse(poll, "--poll", Duration.ofMillis(100));
        ManagerClient manager = Session.open(io, contextOptions).manager();
        long lastId = print(newestFirst(manager, limit), -1);
        while (follow) {
            Thread.sleep(every);
            lastId = print(newerThan(manager, lastId), lastId);
        }
        return 0;
    }

    private static List<JsonNode> newestFirst(ManagerClient manager, int count) {
        List<JsonNode> events = new ArrayList<>();
        manager.get(CliPaths.audit(count, null)).path("events").forEach(events::add);
        return events;
    }

    /** Every event after {@code lastId}, paging back until it is reached. */
    private static List<JsonNode> newerThan(ManagerClient manager, long lastId) {
        List<JsonNode> events = new ArrayList<>();
        Long before = null;
        while (true) {
            JsonNode page = manager.get(CliPaths.audit(100, before));
            for (JsonNode event : page.path("events")) {
                if (event.path("id").asLong() <= lastId) {
                    return events;
                }
                events.add(event);
            }
            if (!page.path("next").isNumber() || lastId < 0) {
                return events;
            }
            before = page.path("next").asLong();
        }
    }

    /** Prints newest-first {@code events} oldest first; returns the highest ID seen. */
    private long print(List<JsonNode> events, long lastId) {
        long highest = lastId;
        List<List<String>> rows = new ArrayList<>();
        for (JsonNode event : events.reversed()) {
            highest = Math.max(highest, event.path("id").asLong());
            if (format.equals("json")) {
                io.out().println(event);
            } else {
                rows.add(row(event));
            }
        }
        if (!rows.isEmpty() || (widths == null && format.equals("text"))) {
            printRows(rows);
        }
        io.out().flush();
        return highest;
    }

    private void printRows(List<List<String>> rows) {
        if (widths == null) {
            widths = new int[HEADERS.size()];
            for (int i = 0; i < widths.length; i++) {
                widths[i] = HEADERS.get(i).length();
                for (List<String> row : rows) {
                    widths[i] = Math.max(widths[i], row.get(i).length());
                }
            }
            io.out().println(line(HEADERS, widths));
        }
        for (List<String> row : rows) {
            io.out().println(line(row, widths));
        }
    }

    private static String line(List<String> cells, int[] widths) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < cells.size(); i++) {
            String cell = cells.get(i);
            out.append(cell);
            if (i < cells.size() - 1) {
                out.append(" ".repeat(Math.max(0, widths[i] - cell.length()) + 2));
            }
        }
        return out.toString().stripTrailing();
    }

    /** An event's cells: the time to the second in UTC, the rest as recorded, "-" for what is missing. */
    static List<String> row(JsonNode event) {
        String time = text(event, "time");
        try {
            time = java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss'Z'")
                    .format(java.time.Instant.parse(time).atOffset(java.time.ZoneOffset.UTC));
        } catch (java.time.format.DateTimeParseException e) {
            // shown as recorded
        }
        return List.of(time, text(event, "actor"), text(event, "action"), text(event, "target"), text(event, "outcome"),
                text(event, "sourceAddress"));
    }

    private static String text(JsonNode event, String field) {
        JsonNode value = event.path(field);
        String text = value.isMissingNode() || value.isNull() ? "" : Text.printable(value.asText()).strip();
        return text.isEmpty() || text.equals("null") ? "-" : text;
    }
}
