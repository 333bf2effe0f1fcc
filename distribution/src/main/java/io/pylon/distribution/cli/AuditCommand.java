package io.pylon.distribution.cli;

import com.fasterxml.jackson.databind.JsonNode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code pylon audit [--limit N] [--follow]}: the newest audit events, oldest of them first (as a log reads);
 * {@code --follow} then polls for newer ones until interrupted. {@code -o json} prints one event per line (JSONL).
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
        for (JsonNode event : events.reversed()) {
            highest = Math.max(highest, event.path("id").asLong());
            if (format.equals("json")) {
                io.out().println(event);
            } else {
                io.out().println(Text.printable(event.path("time").asText()) + "  " + Text.printable(event.path("actor").asText())
                        + "  " + Text.printable(event.path("action").asText()) + "  " + Text.printable(event.path("target").asText())
                        + "  " + Text.printable(event.path("outcome").asText()) + "  from " + Text.printable(event.path("sourceAddress").asText()));
            }
        }
        io.out().flush();
        return highest;
    }
}
