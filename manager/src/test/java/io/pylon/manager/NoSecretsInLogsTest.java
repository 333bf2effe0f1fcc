package io.pylon.manager;

import io.pylon.core.http.PodPaths;
import io.pylon.core.server.Pod;
import io.pylon.core.testing.TestPods;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static io.pylon.manager.ManagerClient.json;
import static org.assertj.core.api.Assertions.assertThat;

/** A full run of the Manager, every secret it handled, and a grep of everything it logged and printed. */
class NoSecretsInLogsTest {

    @Test
    void theLogHoldsNoPasswordTokenOrEnvironmentId() throws Exception {
        List<String> secrets = new ArrayList<>();
        String logText;
        try (ConsoleCapture capture = new ConsoleCapture()) {
            String dbPassword = "Db-secret-password-5521";
            Pod pod = ManagerClient.start("manager-secrets", Map.of(
                    "pylon.manager.db.password", dbPassword,
                    "pylon.manager.bootstrap.environment-urls", "worker=http://127.0.0.4:8091,cache=http://127.0.0.2:8090",
                    "pylon.manager.auth.max-failures", "2"));
            secrets.add(dbPassword);
            secrets.add(ManagerClient.ADMIN_PASSWORD);
            secrets.add(TestPods.ENVIRONMENT_ID);
            try {
                ManagerClient manager = new ManagerClient(pod);
                String admin = manager.adminToken();
                secrets.add(admin);
                secrets.add(admin.substring("pylon_at_".length()));

                manager.createUser(admin, "eve", "Eve-password-9876", "viewer");
                secrets.add("Eve-password-9876");
                manager.login("eve", "Eve-wrong-password-1");
                manager.login("eve", "Eve-wrong-password-2");
                manager.login("Mistyped-password-in-username", "whatever-secret-3");
                manager.tokenRequest(Map.of("grant_type", "client_credentials"),
                        "Authorization", ManagerClient.basic("eve", "Basic-secret-4"));
                secrets.addAll(List.of("Eve-wrong-password-1", "Eve-wrong-password-2", "Mistyped-password-in-username",
                        "whatever-secret-3", "Basic-secret-4"));
                manager.postJson("/apiops/users/eve/unlock", admin, null);
                manager.postJson("/apiops/users/eve/password", admin, "{\"password\":\"Eve-new-password-1\"}");
                secrets.add("Eve-new-password-1");
                manager.postJson("/apiops/users", admin, "{\"username\":\"frank\",\"password\":\"short-pw\",\"role\":\"viewer\"}");
                secrets.add("short-pw");

                HttpResponse<String> pat = manager.postJson("/apiops/tokens", admin, "{\"name\":\"ci\"}");
                String personal = json(pat).get("token").asText();
                secrets.add(personal);
                manager.get("/apiops/auth/me", personal);
                manager.postForm("/apiops/auth/revoke", admin, Map.of("token", personal));
                manager.get("/apiops/auth/me", personal);

                HttpResponse<String> env = manager.postJson("/apiops/environments", admin,
                        "{\"name\":\"prod\",\"type\":\"production\",\"environmentId\":\"abcdefabcdefabcdefabcdef\","
                                + "\"urls\":{\"worker\":\"http://w:8091\",\"cache\":\"http://c:8090\"}}");
                assertThat(env.statusCode()).isEqualTo(201);
                secrets.add("abcdefabcdefabcdefabcdef");
                String rotated = json(manager.postJson("/apiops/environments/prod/rotate-id", admin, null))
                        .get("environmentId").asText();
                secrets.add(rotated);
                manager.postJson("/apiops/environments", admin, "{\"name\":\"bad\",\"type\":\"test\","
                        + "\"environmentId\":\"not-an-id-0123456789\",\"urls\":{}}");
                secrets.add("not-an-id-0123456789");
                assertThat(manager.get("/apiops/audit", admin).statusCode()).isEqualTo(200);
                TestPods.get(pod, PodPaths.defaults().health());
            } finally {
                pod.stop();
            }
            logText = capture.text();
        }

        assertThat(logText).contains("token.issued").contains("login.failed").contains("account.locked");
        for (String secret : secrets) {
            assertThat(logText).as("the log must not contain a secret").doesNotContain(secret);
        }
    }
}
