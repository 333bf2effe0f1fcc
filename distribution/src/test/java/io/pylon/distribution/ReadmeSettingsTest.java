package io.pylon.distribution;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** The README's settings table is the one `pylon settings` prints: regenerate it when a setting changes. */
class ReadmeSettingsTest {
    private static final Pattern KEY_COLUMN = Pattern.compile("(?m)^\\| `[^`]+` \\| `([^`]+)` \\|");

    @Test
    void readmeListsEverySettingExactlyAsTheCodeDescribesIt() throws Exception {
        String readme = Files.readString(Path.of("..", "README.md"));
        int begin = readme.indexOf('\n', readme.indexOf("<!-- settings:begin")) + 1;
        int end = readme.indexOf("<!-- settings:end");
        assertThat(readme.substring(begin, end))
                .as("README settings table; regenerate it from `./pylon settings`")
                .isEqualTo(SettingsCommand.table());
    }

    @Test
    void everySettingDeclaredInTheCodeIsListed() throws Exception {
        Set<String> listed = new java.util.HashSet<>();
        Matcher rows = KEY_COLUMN.matcher(SettingsCommand.table());
        while (rows.find()) {
            listed.add(rows.group(1));
        }
        TreeMap<String, String> declared = DeclaredSettings.in(Path.of("..").toAbsolutePath().normalize());
        Map<String, String> missing = new TreeMap<>(declared);
        missing.keySet().removeAll(listed);
        assertThat(declared).as("Settings found in the compiled classes").containsKeys(
                "pylon.server.bind", "pylon.discovery.mode", "pylon.broadcast.deadline",
                "pylon.diagnostics.heavy-concurrency", "pylon.manager.db.url", "pylon.worker.upstream.max-total",
                "pylon.grid.port", "pylon.cache.addresses");
        assertThat(missing).as("Settings declared in the code but not printed by `pylon settings`: add them to "
                + "their module's settings() (or CoreSettings.all / PodServer.settingsOf) and regenerate the README")
                .isEmpty();
    }
}
