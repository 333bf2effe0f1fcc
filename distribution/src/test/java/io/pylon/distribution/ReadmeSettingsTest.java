package io.pylon.distribution;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** The README's settings table is the one `pylon settings` prints: regenerate it when a setting changes. */
class ReadmeSettingsTest {

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
    void everySettingAPodReadsIsInTheTable() {
        String table = SettingsCommand.table();
        for (io.pylon.core.server.PylonModule module : Modules.all()) {
            for (io.pylon.core.config.Setting<?> setting : io.pylon.core.server.PodServer.settingsOf(module)) {
                assertThat(table).as(module.name() + " reads " + setting.key()).contains("| `" + setting.envName() + "` |");
            }
        }
    }
}
