package io.pylon.core.diagnostics;

import com.fasterxml.jackson.databind.JsonNode;
import io.pylon.core.http.Json;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

class SecretMaskerTest {
    private static final String ID = "feedfacefeedfacefeedface";
    private final SecretMasker masker = new SecretMasker(ID, List.of(Pattern.compile("^ACME_", Pattern.CASE_INSENSITIVE)),
            List.of("pylon.environment.id", "PYLON_ENVIRONMENT_ID", "pylon.db.url-secretless"));

    @Test
    void environmentVariablesNamedLikeSecretsAreMasked() {
        EnvSection env = new EnvSection(masker, new EnvDigest("test-id"), () -> Map.of(
                "DB_PASSWORD", "hunter2", "GITHUB_TOKEN", "ghp_x", "AWS_SECRET_ACCESS_KEY", "aws",
                "PYLON_ENVIRONMENT_ID", ID, "ACME_LICENSE", "lic", "SERVICE_CREDENTIALS", "c",
                "JAVA_TOOL_OPTIONS", "-Xmx1g -Dapp.api-key=k3y", "HOME", "/root", "RUN_AS", "run --id " + ID));
        JsonNode variables = Json.MAPPER.valueToTree(env.collect()).path("environment");
        for (String key : List.of("DB_PASSWORD", "GITHUB_TOKEN", "AWS_SECRET_ACCESS_KEY", "PYLON_ENVIRONMENT_ID",
                "ACME_LICENSE", "SERVICE_CREDENTIALS")) {
            assertThat(variables.path(key).asText()).as(key).isEqualTo("******");
        }
        assertThat(variables.path("JAVA_TOOL_OPTIONS").asText()).isEqualTo("-Xmx1g -Dapp.api-key=******");
        assertThat(variables.path("HOME").asText()).isEqualTo("/root");
        assertThat(variables.path("RUN_AS").asText()).isEqualTo("run --id ******");
        assertThat(variables.toString()).doesNotContain(ID, "hunter2", "k3y");
    }

    @Test
    void commandLinesKeepTheirShapeWithSecretValuesMasked() {
        assertThat(masker.maskInside("io.pylon.Main --password hunter2 --port 8080 -Ddb.secret=s3 -Dx=y"))
                .isEqualTo("io.pylon.Main --password ****** --port 8080 -Ddb.secret=****** -Dx=y");
        assertThat(masker.maskInside("app --auth-token=abc --verbose")).isEqualTo("app --auth-token=****** --verbose");
        assertThat(masker.maskInside("--private-key /etc/key.pem")).isEqualTo("--private-key ******");
    }

    @Test
    void urlsLoseTheirUserInfoOnly() {
        assertThat(masker.maskInside("jdbc:postgresql://app:pw@db:5432/pylon")).isEqualTo("jdbc:postgresql://******@db:5432/pylon");
        assertThat(masker.maskInside("https://example.test/a@b")).isEqualTo("https://example.test/a@b");
        assertThat(masker.maskInside("http://proxy:3128")).isEqualTo("http://proxy:3128");
    }

    @Test
    void keysAreMatchedByWordCaseInsensitivelyAndByExtraPatterns() {
        assertThat(masker.isSecretKey("javax.net.ssl.keyStorePassword")).isTrue();
        assertThat(masker.isSecretKey("Authorization")).isTrue();
        assertThat(masker.isSecretKey("acme_anything")).isTrue();
        assertThat(masker.isSecretKey("pylon.db.url-secretless")).isTrue();
        assertThat(masker.isSecretKey("java.version")).isFalse();
        assertThat(masker.isSecretKey("PATH")).isFalse();
    }

    @Test
    void commonSecretNamesAreMaskedBySegment() {
        SecretMasker plain = new SecretMasker(null, List.of(), List.of());
        for (String key : List.of("DB_PW", "SMTP_PASS", "MYSQL_PWD", "GPG_PASSPHRASE", "SSH_PASSPHRASE_FILE",
                "GOOGLE_APPLICATION_CREDENTIALS", "CREDENTIALS_JSON", "NPM_TOKEN", "TOKEN", "CLIENT_SECRET",
                "SECRETS_DIR", "STRIPE_API_KEY", "KEY", "SIGNING_KEY_BASE64", "app.apiKey", "db-pw", "Authorization")) {
            assertThat(plain.isSecretKey(key)).as(key).isTrue();
        }
        for (String key : List.of("KEYBOARD_LAYOUT", "MONKEY_MODE", "PASSENGER_COUNT", "BYPASS_PROXY", "AUTHOR",
                "TOKENIZER_THREADS", "PWD", "PASS_THROUGH", "PWDX", "OLDPWD_HINT_LENGTH", "HOSTNAME", "PATH", "java.version")) {
            assertThat(plain.isSecretKey(key)).as(key).isFalse();
        }
    }

    @Test
    void urlUserInfoIsMaskedInAnyValueEvenWithAnAtSignInThePassword() {
        SecretMasker plain = new SecretMasker(null, List.of(), List.of());
        assertThat(plain.mask("REDIS_URL", "redis://default:p@ss@cache:6379/0")).isEqualTo("redis://******@cache:6379/0");
        assertThat(plain.mask("UPSTREAM", "https://user@example.test/x")).isEqualTo("https://******@example.test/x");
        assertThat(plain.mask("DATABASE_URL", "jdbc:postgresql://db/pylon?user=app&password=hunter2&ssl=true"))
                .isEqualTo("jdbc:postgresql://db/pylon?user=app&password=******&ssl=true");
        assertThat(plain.mask("KEYBOARD_LAYOUT", "de-nodeadkeys")).isEqualTo("de-nodeadkeys");
    }

    @Test
    void theEnvironmentIdIsMaskedWhereverItAppears() {
        assertThat(masker.withoutEnvironmentId("thread-" + ID + "-1")).isEqualTo("thread-******-1");
        assertThat(new SecretMasker(null, List.of(), List.of()).withoutEnvironmentId("x")).isEqualTo("x");
    }

    @Test
    void theGuardComparesTheWholeValue() {
        EnvironmentIdGuard guard = new EnvironmentIdGuard(ID);
        assertThat(guard.accepts(ID)).isTrue();
        assertThat(guard.accepts(ID + " ")).isFalse();
        assertThat(guard.accepts(ID.substring(1))).isFalse();
        assertThat(guard.accepts("")).isFalse();
        assertThat(guard.accepts(null)).isFalse();
        EnvironmentIdGuard none = new EnvironmentIdGuard(null);
        assertThat(none.configured()).isFalse();
        assertThat(none.accepts("anything")).isFalse();
    }
}
