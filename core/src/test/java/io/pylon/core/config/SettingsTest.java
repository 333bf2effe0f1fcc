package io.pylon.core.config;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SettingsTest {
    static final Setting<Integer> PORT = Setting.of("pylon.server.port", "port", 8091, SettingType.PORT);
    static final Setting<Duration> TIMEOUT = Setting.of("pylon.x.timeout", "t", Duration.ofSeconds(1), SettingType.DURATION_TYPE);

    @Test
    void environmentVariableNameIsDerivedFromTheKey() {
        assertThat(Setting.of("pylon.health.check-timeout", "", null, SettingType.STRING).envName())
                .isEqualTo("PYLON_HEALTH_CHECK_TIMEOUT");
    }

    @Test
    void defaultWhenUnset() {
        assertThat(Settings.of(Map.of()).get(PORT)).isEqualTo(8091);
    }

    @Test
    void systemPropertyAndFileOverrideTheEnvironment(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        Path file = dir.resolve("pylon.properties");
        Files.writeString(file, "pylon.server.port=9002\n");
        Settings settings = settingsWith(Map.of(), Map.of("pylon.config.file", file.toString()),
                Map.of("PYLON_SERVER_PORT", "9001"));
        assertThat(settings.get(PORT)).isEqualTo(9002);
        Settings withProperty = settingsWith(Map.of(), Map.of("pylon.config.file", file.toString(), "pylon.server.port", "9003"),
                Map.of("PYLON_SERVER_PORT", "9001"));
        assertThat(withProperty.get(PORT)).isEqualTo(9003);
        assertThat(settingsWith(Map.of(), Map.of(), Map.of("PYLON_SERVER_PORT", "9001")).get(PORT)).isEqualTo(9001);
    }

    private static Settings settingsWith(Map<String, String> overrides, Map<String, String> props, Map<String, String> env) throws Exception {
        var constructor = Settings.class.getDeclaredConstructor(Map.class, Map.class, Map.class);
        constructor.setAccessible(true);
        return constructor.newInstance(overrides, props, env);
    }

    @Test
    void typesParseAndRejectWithAClearMessage() {
        assertThat(Settings.of(Map.of("pylon.x.timeout", "250ms")).get(TIMEOUT)).isEqualTo(Duration.ofMillis(250));
        assertThat(Settings.of(Map.of("pylon.x.timeout", "5m")).get(TIMEOUT)).isEqualTo(Duration.ofMinutes(5));
        assertThatThrownBy(() -> Settings.of(Map.of("pylon.x.timeout", "soon")).get(TIMEOUT))
                .hasMessage("Invalid setting pylon.x.timeout (environment variable PYLON_X_TIMEOUT): 'soon' is not a duration such as 500ms, 10s, 5m, 1h or 1d.");
        assertThatThrownBy(() -> Settings.of(Map.of("pylon.server.port", "70000")).get(PORT)).hasMessageContaining("from 0 to 65535");
        assertThat(SettingType.LIST.parse(" a, b ,,c")).isEqualTo(List.of("a", "b", "c"));
        assertThatThrownBy(() -> SettingType.PATH_SEGMENT.parse("a/b")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aMissingConfigFileIsNamed() {
        assertThatThrownBy(() -> Settings.of(Map.of("pylon.config.file", "/no/such/file.properties")))
                .isInstanceOf(InvalidSettingException.class)
                .hasMessageContaining("/no/such/file.properties");
    }
}
