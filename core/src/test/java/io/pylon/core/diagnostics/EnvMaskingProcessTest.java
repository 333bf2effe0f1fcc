package io.pylon.core.diagnostics;

import com.fasterxml.jackson.databind.JsonNode;
import io.pylon.core.http.Json;
import io.pylon.core.testing.TestPods;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** A real pod process started with secret-looking environment variables: {@code env} diagnostics mask them. */
class EnvMaskingProcessTest {
    private static final Map<String, String> SECRETS = Map.of(
            "DB_PW", "pw-value-1", "SMTP_PASS", "pass-value-2", "MYSQL_PWD", "pwd-value-3",
            "GPG_PASSPHRASE_TEXT", "phrase-value-4", "AWS_CREDENTIALS_JSON", "cred-value-5", "NPM_TOKEN", "token-value-6",
            "MY_SECRET_THING", "secret-value-7", "STRIPE_KEY", "key-value-8");

    @Test
    void secretLookingVariablesOfARealProcessAreMaskedAndOthersShown() throws Exception {
        Map<String, String> environment = new HashMap<>(SECRETS);
        environment.put("KEYBOARD_LAYOUT", "de-nodeadkeys");
        environment.put("UPSTREAM_URL", "https://svc:url-pass-9@api.example.test/v1");
        try (DiagnosticsPodProcess pod = DiagnosticsPodProcess.start("64m", environment, Map.of())) {
            HttpRequest request = HttpRequest.newBuilder(URI.create(pod.baseUrl() + "/platform/diagnostics/env?internal=true"))
                    .header("Authorization", TestPods.ENVIRONMENT_ID).timeout(Duration.ofSeconds(30)).build();
            HttpResponse<String> response = TestPods.client().send(request, HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).isEqualTo(200);
            JsonNode variables = Json.MAPPER.readTree(response.body()).path("env").path("environment");
            for (String key : SECRETS.keySet()) {
                assertThat(variables.path(key).asText()).as(key).isEqualTo(SecretMasker.MASK);
            }
            assertThat(variables.path("KEYBOARD_LAYOUT").asText()).isEqualTo("de-nodeadkeys");
            assertThat(variables.path("UPSTREAM_URL").asText()).isEqualTo("https://******@api.example.test/v1");
            assertThat(response.body()).doesNotContain(List.copyOf(SECRETS.values())).doesNotContain("url-pass-9");
        }
    }
}
