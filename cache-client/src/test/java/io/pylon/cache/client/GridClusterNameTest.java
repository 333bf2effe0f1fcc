package io.pylon.cache.client;

import io.pylon.core.config.InvalidSettingException;
import io.pylon.core.config.Settings;
import org.junit.jupiter.api.Test;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class GridClusterNameTest {
    private static final String ID = "0123456789abcdef01234567";

    @Test
    void theSecretIsAnHmacKeyedByTheEnvironmentIdAndTheLabelAnotherOne() throws Exception {
        GridClusterName name = GridClusterName.of("local", ID);
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(ID.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        String expected = HexFormat.of().formatHex(
                mac.doFinal("pylon data grid cluster name\nlocal".getBytes(StandardCharsets.UTF_8)), 0, 16);
        assertThat(name.secret()).isEqualTo("pylon-grid-" + expected);
        assertThat(name.label()).matches("pylon-local-[0-9a-f]{12}");
        assertThat(name.secret()).doesNotContain(name.label().substring("pylon-local-".length()));
        assertThat(name.toString()).isEqualTo(name.label()).doesNotContain(expected);
        assertThat(name.secret() + name.label()).doesNotContain(ID);
    }

    @Test
    void differsBetweenEnvironmentsOfTheSameNameAndIsStable() {
        GridClusterName one = GridClusterName.of("local", ID);
        GridClusterName two = GridClusterName.of("local", "fedcba9876543210fedcba98");
        assertThat(one.secret()).isNotEqualTo(two.secret());
        assertThat(one.label()).isNotEqualTo(two.label());
        assertThat(one).isEqualTo(GridClusterName.of("local", ID));
        assertThat(GridClusterName.of("Prod EU", ID).label()).startsWith("pylon-prod-eu-");
    }

    @Test
    void withoutAnEnvironmentIdThereIsNoNameAndTheSettingIsNamed() {
        assertThatThrownBy(() -> GridClusterName.of(Settings.of(Map.of("pylon.environment.name", "x"))))
                .isInstanceOf(InvalidSettingException.class).hasMessageContaining("PYLON_ENVIRONMENT_ID");
    }

    @Test
    void redactionReplacesTheSecretInMessagesAndExceptionChains() {
        GridClusterName name = GridClusterName.of("redact", ID);
        RedactingLoggerFactory.hide(name);
        assertThat(RedactingLoggerFactory.redact("[127.0.0.1]:5701 [" + name.secret() + "] [5.5.0] up"))
                .isEqualTo("[127.0.0.1]:5701 [" + name.label() + "] [5.5.0] up");
        Throwable thrown = new IllegalStateException("outer", new RuntimeException("cluster " + name.secret()));
        Throwable redacted = RedactingLoggerFactory.redact(thrown);
        StringBuilder text = new StringBuilder();
        for (Throwable t = redacted; t != null; t = t.getCause()) {
            text.append(t.getMessage()).append('|');
        }
        assertThat(text.toString()).doesNotContain(name.secret()).contains(name.label())
                .contains("java.lang.IllegalStateException: outer");
        Throwable clean = new IllegalStateException("nothing secret");
        assertThat(RedactingLoggerFactory.redact(clean)).isSameAs(clean);
    }
}
