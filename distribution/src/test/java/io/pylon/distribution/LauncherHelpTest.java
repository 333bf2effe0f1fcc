package io.pylon.distribution;

import org.junit.jupiter.api.Test;
import picocli.CommandLine.Command;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** `./pylon --help` names every command the launcher runs, so a newcomer finds the control plane's too. */
class LauncherHelpTest {
    @Test
    void theHelpNamesEverySubcommand() throws Exception {
        Process help = new ProcessBuilder("bash", Path.of("..", "pylon").toAbsolutePath().normalize().toString(), "--help")
                .redirectErrorStream(true).start();
        String text = new String(help.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(help.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(help.exitValue()).as(text).isZero();

        assertThat(text).startsWith("Pylon launcher.").doesNotContain("#!").doesNotContain("set -euo");
        for (Class<?> command : PylonCli.SUBCOMMANDS) {
            String name = command.getAnnotation(Command.class).name();
            assertThat(text).as(name).containsPattern("(?m)(\\./pylon |, )" + Pattern.quote(name) + "\\b");
        }
    }
}
