package io.pylon.manager;

import io.pylon.core.testing.TestPostgres;
import com.fasterxml.jackson.databind.JsonNode;
import io.pylon.core.http.PodPaths;
import io.pylon.core.server.Pod;
import io.pylon.core.testing.TestPods;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.pylon.manager.ManagerClient.json;
import static org.assertj.core.api.Assertions.assertThat;

/** Start-up: the first admin, the bootstrap environment, data surviving a restart, replicas sharing PostgreSQL. */
class ManagerStartupTest {
    private static final Pattern PRINTED_PASSWORD = Pattern.compile("shown only this once:\\R\\R\\s+(\\S+)");

    @Test
    void aGeneratedAdminPasswordIsPrintedOnceAndDataSurvivesARestart() throws Exception {
        Path dataDir = Files.createTempDirectory("pylon-manager-restart");
        Map<String, String> settings = new HashMap<>();
        settings.put("pylon.data.dir", dataDir.toString());
        try {
            String password;
            String firstOutput;
            try (ConsoleCapture capture = new ConsoleCapture()) {
                Pod first = startWithoutAdminPassword("manager-restart", settings);
                try {
                    firstOutput = capture.text();
                    Matcher m = PRINTED_PASSWORD.matcher(firstOutput);
                    assertThat(m.find()).as(firstOutput).isTrue();
                    password = m.group(1);
                    ManagerClient manager = new ManagerClient(first);
                    String token = manager.token("admin", password);
                    assertThat(manager.postJson("/apiops/environments", token, "{\"name\":\"kept\",\"type\":\"test\","
                            + "\"urls\":{\"worker\":\"http://w:8091\",\"cache\":\"http://c:8090\"}}").statusCode()).isEqualTo(201);
                } finally {
                    first.stop();
                }
            }
            // only the banner carries it: no log record does
            assertThat(firstOutput.split(Pattern.quote(password), -1)).hasSize(2);
            assertThat(Files.exists(dataDir.resolve("manager.mv.db"))).isTrue();

            try (ConsoleCapture capture = new ConsoleCapture()) {
                Pod second = startWithoutAdminPassword("manager-restart", settings);
                try {
                    assertThat(capture.text()).doesNotContain("shown only this once");
                    ManagerClient manager = new ManagerClient(second);
                    String token = manager.token("admin", password);
                    assertThat(manager.get("/apiops/environments/kept", token).statusCode()).isEqualTo(200);
                } finally {
                    second.stop();
                }
            }
        } finally {
            TestPods.deleteTree(dataDir);
        }
    }

    @Test
    void theBootstrapEnvironmentCarriesThePodsEnvironmentId() {
        Pod pod = ManagerClient.start("manager-bootstrap", Map.of(
                "pylon.environment.name", "local",
                "pylon.manager.bootstrap.environment-type", "local",
                "pylon.manager.bootstrap.environment-urls",
                "manager=http://127.0.0.1:8080,worker=http://127.0.0.4:8091,cache=http://127.0.0.2:8090"));
        try {
            ManagerClient manager = new ManagerClient(pod);
            JsonNode local = json(manager.get("/apiops/environments/local", manager.adminToken()));

            assertThat(local.get("environmentId").asText()).isEqualTo(TestPods.ENVIRONMENT_ID);
            assertThat(local.get("type").asText()).isEqualTo("local");
            assertThat(local.get("urls").get("worker").asText()).isEqualTo("http://127.0.0.4:8091");
            assertThat(local.get("urls").get("manager").asText()).isEqualTo("http://127.0.0.1:8080");
        } finally {
            pod.stop();
        }
    }

    @Test
    void replicasSharingPostgresqlShareAccountsAndTokensAndReportTheDatabaseInReadiness() throws Exception {
        TestPostgres postgres = TestPostgres.shared();
        // without the token check cache, a change made through one replica holds on the other at once
        Map<String, String> db = Map.of("pylon.manager.db.url", postgres.createDatabase("replicas"),
                "pylon.manager.db.user", TestPostgres.USER, "pylon.manager.db.password", TestPostgres.PASSWORD,
                "pylon.manager.token.check-cache", "0ms", "pylon.manager.auth.max-failures", "2");
        Pod a = ManagerClient.start("manager-a", db);
        Pod b = ManagerClient.start("manager-b", db);
        try {
            ManagerClient managerA = new ManagerClient(a);
            ManagerClient managerB = new ManagerClient(b);
            String token = managerA.adminToken();
            managerA.createUser(token, "shared", "Shared-pass-1234", "viewer");

            assertThat(managerB.get("/apiops/auth/me", token).statusCode()).isEqualTo(200);
            assertThat(managerB.login("shared", "Shared-pass-1234").statusCode()).isEqualTo(200);
            HttpResponse<String> ready = TestPods.get(b, PodPaths.defaults().ready());
            assertThat(ready.statusCode()).isEqualTo(200);
            assertThat(json(ready).get("checks").get("database").get("database").asText()).isEqualTo("postgresql");
            assertThat(ready.body()).doesNotContain(TestPostgres.PASSWORD).doesNotContain("jdbc:");

            String viewer = managerB.token("shared", "Shared-pass-1234");
            managerA.postForm("/apiops/auth/revoke", viewer, Map.of("token", viewer));
            ApiAssertions.assertInvalidToken(managerB.get("/apiops/auth/me", viewer));

            ApiAssertions.assertBadCredentials(managerA.login("shared", "wrong-password-1"));
            ApiAssertions.assertBadCredentials(managerB.login("shared", "wrong-password-2"));
            ApiAssertions.assertBadCredentials(managerA.login("shared", "Shared-pass-1234"));
            assertThat(json(managerB.get("/apiops/users/shared", token)).get("locked").asBoolean()).isTrue();
            assertThat(managerB.postJson("/apiops/users/shared/unlock", token, null).statusCode()).isEqualTo(200);
            assertThat(managerA.login("shared", "Shared-pass-1234").statusCode()).isEqualTo(200);
            assertThat(managerA.get("/apiops/audit", token).body()).contains("account.locked").contains("token.revoked");
        } finally {
            a.stop();
            b.stop();
        }
    }

    private static Pod startWithoutAdminPassword(String name, Map<String, String> settings) {
        Map<String, String> all = new HashMap<>(TestPods.defaults(name));
        all.put("pylon.manager.password.argon2-memory", "4096");
        all.put("pylon.manager.password.argon2-iterations", "1");
        all.putAll(settings);
        return io.pylon.core.server.PodServer.start(new ManagerModule(), io.pylon.core.config.Settings.of(all));
    }
}
