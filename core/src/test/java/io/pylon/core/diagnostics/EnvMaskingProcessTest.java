package io.pylon.core.diagnostics;

import com.fasterxml.jackson.databind.JsonNode;
import io.pylon.core.http.Json;
import io.pylon.core.server.Pod;
import io.pylon.core.testing.FakeModule;
import io.pylon.core.testing.TestPods;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** A real pod process started with secret-looking environment variables: {@code env} diagnostics mask them. */
class EnvMaskingProcessTest {
    private static final Map<String, String> SECRETS = Map.of(
            "DB_PW", "pw-value-1", "SMTP_PASS", "pass-value-2", "MYSQL_PWD", "pwd-value-3",
            "GPG_PASSPHRASE_TEXT", "phrase-value-4", "AWS_CREDENTIALS_JSON", "cred-value-5", "NPM_TOKEN", "token-value-6",
            "MY_SECRET_THING", "secret-value-7", "STRIPE_KEY", "key-value-8");

    @Test
    void secretLookingVariablesOfARealProcessAreMaskedAndOthersShown() throws Exception {
        String java = ProcessHandle.current().info().command().orElseThrow();
        ProcessBuilder builder = new ProcessBuilder(java, "-Xmx64m", "-cp", System.getProperty("java.class.path"),
                EnvPodMain.class.getName(), String.valueOf(ProcessHandle.current().pid()));
        builder.environment().putAll(SECRETS);
        builder.environment().put("KEYBOARD_LAYOUT", "de-nodeadkeys");
        builder.environment().put("UPSTREAM_URL", "https://svc:url-pass-9@api.example.test/v1");
        builder.redirectErrorStream(true);
        Process process = builder.start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            String base = null;
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                if (line.startsWith(EnvPodMain.READY)) {
                    base = line.substring(EnvPodMain.READY.length());
                    break;
                }
            }
            assertThat(base).as("the pod process announced its address").isNotNull();
            HttpRequest request = HttpRequest.newBuilder(URI.create(base + "/platform/diagnostics/env?internal=true"))
                    .header("Authorization", TestPods.ENVIRONMENT_ID).timeout(Duration.ofSeconds(30)).build();
            HttpResponse<String> response = TestPods.client().send(request, HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).isEqualTo(200);
            JsonNode variables = Json.MAPPER.readTree(response.body()).path("env").path("environment");
            for (String key : SECRETS.keySet()) {
                assertThat(variables.path(key).asText()).as(key).isEqualTo(SecretMasker.MASK);
            }
            assertThat(variables.path("KEYBOARD_LAYOUT").asText()).isEqualTo("de-nodeadkeys");
            assertThat(variables.path("UPSTREAM_URL").asText()).isEqualTo("https://******@api.example.test/v1");
            List<String> values = List.copyOf(SECRETS.values());
            assertThat(response.body()).doesNotContain(values).doesNotContain("url-pass-9");
        } finally {
            process.destroy();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
    }

    /** The child process: one diagnostics pod on a free loopback port, until its parent (the test JVM) is gone. */
    public static final class EnvPodMain {
        static final String READY = "READY ";

        public static void main(String[] args) {
            Pod pod = TestPods.start(new FakeModule("worker").servingDiagnostics(), "env-pod",
                    Map.of("pylon.parent.pid", args[0]));
            System.out.println(READY + TestPods.baseUrl(pod));
            System.out.flush();
        }
    }
}
