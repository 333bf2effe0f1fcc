package io.pylon.distribution.cli;

import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/** {@code pylon dump threads <pod> [-o file]}: the pod's jstack-like thread dump as text. */
@Command(name = "threads", description = "Writes a pod's thread dump (text) to standard output or a file.")
public final class ThreadDumpCommand implements Callable<Integer> {
    private final CliIo io;

    @Parameters(paramLabel = "POD")
    String pod;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "File to write (default: standard output).")
    @Nullable Path file;

    @Option(names = "--module", paramLabel = "MODULE", description = "worker or cache (default: found from the pod name).")
    @Nullable String module;

    @Mixin
    ContextOptions contextOptions;

    public ThreadDumpCommand(CliIo io) {
        this.io = io;
    }

    @Override
    public Integer call() throws IOException {
        Session session = Session.open(io, contextOptions);
        String environment = session.environment();
        String text = PodLocator.call(pod, module, candidate -> {
            HttpJson.Answer answer = session.manager().getAnswer(CliPaths.diagnostics(environment, candidate, "threaddump", pod, null));
            if (answer.status() == 404) {
                return PodLocator.Attempt.missing(answer.description());
            }
            if (!answer.ok() || !answer.body().path("threadDump").isTextual()) {
                throw CliException.failed("The thread dump of " + Text.printable(pod) + " failed: "
                        + Text.printable(answer.description()) + " (HTTP " + answer.status() + ").");
            }
            return PodLocator.Attempt.found(answer.body().path("threadDump").asText());
        });
        if (file == null) {
            io.out().println(Text.printableLines(text));
        } else {
            Files.writeString(file, text, StandardCharsets.UTF_8);
            io.err().println("Wrote the thread dump of " + Text.printable(pod) + " to " + file + ".");
        }
        return 0;
    }
}
