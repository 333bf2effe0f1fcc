package io.pylon.distribution.cli;

import org.jspecify.annotations.Nullable;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code pylon collect --every 2m -o fleet.jsonl}: each round asks every pod for {@code all} (a broadcast per module)
 * and appends one line per pod: exactly the pod's {@code /all?internal=true} object with {@code collectedAt} as its
 * first field, what the cron collectors of compatibility.md write. A pod that did not answer gets its line too
 * ({@code podName}, {@code podIp}, {@code error}). Rounds start on a fixed schedule; a round that overruns delays the
 * next, never overlaps it. A viewer's records lack the {@code env} section (the Manager strips it).
 *
 * <p>The records are large (tens of KB of JSON per pod): on a terminal without {@code -o FILE} the command refuses,
 * as curl does for binary output, unless told {@code -o -}; piped, it writes them to standard output. Writing to a
 * file on a terminal, it says after each round what it appended and when the next round starts.
 */
@Command(name = "collect", description = "Appends one /all?internal=true record per pod per round to a JSONL file.")
public final class CollectCommand implements Callable<Integer> {
    private final CliIo io;

    @Parameters(arity = "0..1", paramLabel = "MODULE", description = "worker or cache (default: both).")
    String module;

    @Option(names = "--every", paramLabel = "DURATION", defaultValue = "2m", description = "Time between rounds (default 2m).")
    String every;

    @Option(names = "--rounds", paramLabel = "N", description = "Stop after N rounds (default: until interrupted).")
    Integer rounds;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE",
            description = "JSONL file to append to; - for standard output (the default when it is not a terminal).")
    String output;

    private @Nullable Path file;

    @Mixin
    ContextOptions contextOptions;

    public CollectCommand(CliIo io) {
        this.io = io;
    }

    @Override
    public Integer call() throws IOException, InterruptedException {
        Duration interval = DurationOption.parse(every, "--every", Duration.ofSeconds(1));
        if (rounds != null && rounds < 1) {
            throw CliException.usage("--rounds must be at least 1.");
        }
        if (output == null && io.terminal()) {
            throw CliException.usage("collect writes a large JSON record per pod and round: give a file with -o FILE"
                    + " (or -o - to print them on the terminal anyway).");
        }
        file = output == null || output.equals("-") ? null : Path.of(output);
        List<String> modules = ModuleNames.diagnosable(module);
        Session session = Session.open(io, contextOptions);
        String environment = session.environment();
        boolean anyFailed = false;
        long next = System.nanoTime();
        for (int round = 1; rounds == null || round <= rounds; round++) {
            anyFailed |= round(session, environment, modules, round, interval);
            if (rounds != null && round == rounds) {
                break;
            }
            next += interval.toNanos();
            long wait = next - System.nanoTime();
            if (wait > 0) {
                Thread.sleep(Duration.ofNanos(wait));
            } else {
                next = System.nanoTime();
            }
        }
        return anyFailed ? CliException.FAILED : CliException.OK;
    }

    /** One round; true when a pod or a module failed. */
    private boolean round(Session session, String environment, List<String> modules, int round, Duration interval)
            throws IOException {
        String collectedAt = Instant.now().toString();
        StringBuilder lines = new StringBuilder();
        boolean failed = false;
        for (String name : modules) {
            HttpJson.Answer answer;
            try {
                answer = session.manager().getAnswer(CliPaths.diagnostics(environment, name, "all", null, null));
            } catch (CliException e) {
                if (e.exitCode() == CliException.AUTH) {
                    throw e;
                }
                io.err().println("pylon: round at " + collectedAt + ": " + name + ": " + e.getMessage());
                failed = true;
                continue;
            }
            if (!answer.ok()) {
                io.err().println("pylon: round at " + collectedAt + ": " + name + ": " + Text.printable(answer.description())
                        + " (HTTP " + answer.status() + ")");
                failed = true;
                continue;
            }
            for (JsonNode pod : answer.body().path("pods")) {
                if (pod.has("error")) {
                    failed = true;
                    io.err().println("pylon: round at " + collectedAt + ": pod " + Text.printable(pod.path("podName").asText())
                            + ": " + pod.path("error").path("status").asText() + " " + Text.printable(pod.path("error").path("message").asText()));
                }
                lines.append(record(collectedAt, pod)).append('\n');
            }
        }
        String text = lines.toString();
        append(text);
        if (file != null && io.terminal()) {
            long records = text.chars().filter(c -> c == '\n').count();
            boolean last = rounds != null && round == rounds;
            io.err().println("round " + round + (rounds == null ? "" : " of " + rounds) + ": " + records + " pod records, "
                    + Units.bytes((long) text.getBytes(StandardCharsets.UTF_8).length) + " appended to " + file
                    + (last ? "" : "; next round at " + java.time.LocalTime.now().plus(interval).withNano(0) + " (Ctrl-C stops)"));
        }
        return failed;
    }

    /** The pod's object with {@code collectedAt} first, as collectors splice it in after the opening brace. */
    static String record(String collectedAt, JsonNode pod) {
        ObjectNode line = HttpJson.MAPPER.createObjectNode();
        line.put("collectedAt", collectedAt);
        for (Iterator<Map.Entry<String, JsonNode>> fields = pod.fields(); fields.hasNext(); ) {
            Map.Entry<String, JsonNode> field = fields.next();
            if (!field.getKey().equals("collectedAt")) {
                line.set(field.getKey(), field.getValue());
            }
        }
        return line.toString();
    }

    private void append(String lines) throws IOException {
        if (lines.isEmpty()) {
            return;
        }
        if (file == null) {
            PrintStream out = io.out();
            out.print(lines);
            out.flush();
            return;
        }
        // one write per round in append mode: a reader never sees half a round's line from this process
        try (OutputStream out = Files.newOutputStream(file, StandardOpenOption.CREATE, StandardOpenOption.APPEND,
                StandardOpenOption.WRITE)) {
            out.write(lines.getBytes(StandardCharsets.UTF_8));
        }
    }
}
