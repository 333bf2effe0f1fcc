package io.pylon.distribution;

import io.pylon.distribution.cli.CliIo;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The command line builds only the subcommand it runs, and all of them when it needs them (help, completion, typos). */
class PylonCliTest {
    private static final int ALL = PylonCli.SUBCOMMANDS.size();

    @Test
    void aNamedSubcommandIsTheOnlyOneBuilt() {
        assertThat(PylonCli.commandLine(io(new ByteArrayOutputStream()), new String[]{"pods", "-o", "json"})
                .getSubcommands().keySet()).containsExactly("pods");
        assertThat(PylonCli.commandLine(io(new ByteArrayOutputStream()), new String[]{"config", "current-context"})
                .getSubcommands().keySet()).containsExactly("config");
    }

    @Test
    void helpCompletionAndUnknownNamesGetEverySubcommand() {
        for (String[] args : new String[][]{{}, {"--help"}, {"completion", "bash"}, {"podz"}}) {
            // distinct commands: an alias (envs) is a second key of the same one
            assertThat(new java.util.HashSet<>(PylonCli.commandLine(io(new ByteArrayOutputStream()), args)
                    .getSubcommands().values())).hasSize(ALL);
        }
    }

    @Test
    void aMistypedNameIsAUsageErrorListingTheCommands() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        CommandLine commandLine = PylonCli.commandLine(io(err), new String[]{"podz"});
        assertThat(commandLine.execute("podz")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("Unmatched argument", "podz", "pods");
    }

    @Test
    void completionStillKnowsEveryCommand() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        CliIo io = new CliIo(new ByteArrayInputStream(new byte[0]), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(new ByteArrayOutputStream()), Map.of(), false);
        assertThat(PylonCli.commandLine(io, new String[]{"completion", "bash"}).execute("completion", "bash")).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("pods", "login", "dump", "environments");
    }

    @Test
    void helpAndHOnEverySubcommandPrintTheUsageAndExitZero() {
        java.util.List<java.util.List<String>> paths = CommandPaths.all();
        assertThat(paths).hasSizeGreaterThan(ALL);
        for (java.util.List<String> path : paths) {
            for (String flag : java.util.List.of("--help", "-h")) {
                String[] args = java.util.stream.Stream.concat(path.stream(), java.util.stream.Stream.of(flag)).toArray(String[]::new);
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                ByteArrayOutputStream err = new ByteArrayOutputStream();
                CliIo io = new CliIo(new ByteArrayInputStream(new byte[0]), new PrintStream(out, true, StandardCharsets.UTF_8),
                        new PrintStream(err, true, StandardCharsets.UTF_8), Map.of(), false);
                int code = PylonCli.commandLine(io, args).execute(args);
                assertThat(code).as("exit of pylon %s; stderr: %s", String.join(" ", args), err).isZero();
                assertThat(out.toString(StandardCharsets.UTF_8)).as("pylon " + String.join(" ", args))
                        .startsWith("Usage: pylon " + String.join(" ", path)).contains("-h, --help");
            }
        }
    }

    private static CliIo io(ByteArrayOutputStream err) {
        return new CliIo(new ByteArrayInputStream(new byte[0]), new PrintStream(new ByteArrayOutputStream()),
                new PrintStream(err, true, StandardCharsets.UTF_8), Map.of(), false);
    }
}
