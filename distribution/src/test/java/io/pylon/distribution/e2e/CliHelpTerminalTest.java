package io.pylon.distribution.e2e;

import io.pylon.distribution.PylonCli;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code pylon <command> --help} and {@code -h} as an operator types them in a real terminal (tmux), for every
 * command and subcommand: the usage on the screen and exit 0. Each command runs as its own JVM, as the launcher runs it.
 */
class CliHelpTerminalTest {
    @TempDir
    Path dir;

    @Test
    void everyCommandAnswersHelpAndH() throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        Path script = dir.resolve("pylon");
        Files.writeString(script, "#!/bin/sh\nexec '" + java + "' -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xshare:auto -cp '"
                + System.getProperty("java.class.path") + "' " + PylonCli.class.getName() + " \"$@\"\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
        List<List<String>> paths = io.pylon.distribution.CommandPaths.all();
        StringBuilder loop = new StringBuilder("clear; for c in");
        for (int i = 0; i < paths.size(); i++) {
            loop.append(" '").append(String.join(" ", paths.get(i))).append(i % 2 == 0 ? " --help'" : " -h'");
        }
        // the usage's first line and the exit code of each, one line per command
        loop.append("; do ./pylon $c > out.txt 2>&1; echo \"HELP $c => $? $(head -1 out.txt)\" >> results.txt; done;"
                + " echo EXIT=$?");
        try (TmuxSession tmux = new TmuxSession(dir, 200, 50)) {
            tmux.run(loop.toString());
            tmux.waitForExit(Duration.ofMinutes(6));
        }
        List<String> lines = Files.readAllLines(dir.resolve("results.txt"));
        assertThat(lines).hasSize(paths.size());
        Pattern line = Pattern.compile("HELP (.+) (--help|-h) => (\\d+) (.*)");
        long shortFlags = 0;
        for (String result : lines) {
            Matcher m = line.matcher(result);
            assertThat(m.matches()).as(result).isTrue();
            assertThat(m.group(3)).as(result).isEqualTo("0");
            assertThat(m.group(4)).as(result).startsWith("Usage: pylon " + m.group(1));
            shortFlags += m.group(2).equals("-h") ? 1 : 0;
        }
        assertThat(shortFlags).as("-h was tried too").isEqualTo(paths.size() / 2);
    }
}
