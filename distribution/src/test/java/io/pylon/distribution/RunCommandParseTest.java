package io.pylon.distribution;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The plain form of {@code run} read without picocli gives what picocli reads; everything else is left to picocli. */
class RunCommandParseTest {

    @Test
    void thePlainFormReadsAsPicocliReadsIt() {
        for (String[] args : List.of(
                new String[]{"run", "worker"},
                new String[]{"run", "worker", "--pod-name", "worker-0"},
                new String[]{"run", "cache", "--bind", "127.0.0.2", "--port", "8090"},
                new String[]{"run", "manager", "--port", "65535", "--pod-name", "m", "--bind", "::1"},
                new String[]{"run", "no-such-module", "--port", "99999"})) {
            RunCommand simple = RunCommand.parseSimple(args);
            RunCommand picocli = new RunCommand();
            new CommandLine(picocli).parseArgs(java.util.Arrays.copyOfRange(args, 1, args.length));
            assertThat(simple).as(String.join(" ", args)).isNotNull();
            assertThat(simple).usingRecursiveComparison().isEqualTo(picocli);
        }
    }

    @Test
    void everythingElseIsLeftToPicocli() {
        for (String[] args : List.of(
                new String[]{"run"},
                new String[]{"run", "--help"},
                new String[]{"run", "worker", "--help"},
                new String[]{"run", "worker", "--port"},
                new String[]{"run", "worker", "--port=8091"},
                new String[]{"run", "worker", "--port", "0"},
                new String[]{"run", "worker", "--port", "80a"},
                new String[]{"run", "worker", "--port", "123456"},
                new String[]{"run", "worker", "--port", "1", "--port", "2"},
                new String[]{"run", "worker", "--pod-name", "a", "--pod-name", "b"},
                new String[]{"run", "worker", "--bind", "-x"},
                new String[]{"run", "worker", "--pod-name", ""},
                new String[]{"run", "worker", "--verbose", "x"},
                new String[]{"run", "worker", "extra", "arg"},
                new String[]{"up", "worker"},
                new String[]{"pods", "worker"})) {
            assertThat(RunCommand.parseSimple(args)).as(String.join(" ", args)).isNull();
        }
    }
}
