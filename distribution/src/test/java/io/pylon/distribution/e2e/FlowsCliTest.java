package io.pylon.distribution.e2e;

import io.pylon.core.server.Pod;
import io.pylon.core.testing.TestPods;
import io.pylon.integration.IntegrationModule;
import io.pylon.manager.ManagerModule;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code pylon flows} and {@code pylon runs} against a real Manager and a real Integration pod: apply a YAML file,
 * list, run with input, read the history and one run's steps, replace, delete.
 */
class FlowsCliTest {
    static final String PASSWORD = "flows-cli-Passw0rd";
    @TempDir
    static Path home;
    static Pod manager;
    static Pod integration;
    static CliRunner cli;

    @BeforeAll
    static void start() {
        int managerPort = TestPods.freePort();
        integration = TestPods.start(new IntegrationModule(), "integration-0",
                Map.of("pylon.integration.manager-url", "http://127.0.0.1:" + managerPort));
        manager = TestPods.start(new ManagerModule(), "manager-0", Map.of("pylon.manager.admin.password", PASSWORD,
                "pylon.server.port", String.valueOf(managerPort),
                // a first Integration URL nobody listens on: the Manager goes on to the next, as on pylon up with a pod killed
                "pylon.manager.integration-url", "http://127.0.55.240:9," + TestPods.baseUrl(integration)));
        cli = new CliRunner(home.resolve("pylon").resolve("config"));
        CliRunner.Result login = cli.runWithInput(PASSWORD + "\n", "login", TestPods.baseUrl(manager), "--username", "admin",
                "--password-stdin");
        assertThat(login.exit()).as(login.all()).isZero();
    }

    @AfterAll
    static void stop() {
        if (manager != null) {
            manager.close();
        }
        if (integration != null) {
            integration.close();
        }
    }

    @Test
    void applyListRunHistoryAndDelete() throws Exception {
        Path file = home.resolve("greet.yaml");
        Files.writeString(file, """
                name: greet
                trigger: {schedule: {cron: "0 0 12 * * ?", timezone: Europe/Paris}, http: true}
                steps:
                  - {id: hello, transform: '"hello " & $input.who'}
                """);
        CliRunner.Result applied = cli.run("flows", "apply", file.toString());
        assertThat(applied.exit()).as(applied.all()).isZero();
        assertThat(applied.out()).contains("Created flow greet.").contains("Trigger key (shown once): pylon_tk_");

        CliRunner.Result list = cli.run("flows");
        assertThat(list.exit()).as(list.all()).isZero();
        assertThat(list.out().lines().toList().get(1)).matches("greet\\s+1\\s+\\S+T1[01]:00:00Z\\s+yes\\s+.*");

        CliRunner.Result run = cli.run("flows", "run", "greet", "--input", "{\"who\": \"operator\"}");
        assertThat(run.exit()).as(run.all()).isZero();
        assertThat(run.out()).contains(": succeeded").containsPattern("hello\\s+steps\\s+1\\s+succeeded");

        CliRunner.Result runs = cli.run("runs", "greet");
        assertThat(runs.exit()).as(runs.all()).isZero();
        String id = runs.out().lines().toList().get(1).split("\\s+")[0];
        assertThat(runs.out()).contains("succeeded").contains("manual").contains("integration-0");
        CliRunner.Result one = cli.run("runs", "get", "greet", id, "-o", "json");
        assertThat(one.exit()).as(one.all()).isZero();
        assertThat(one.out()).contains("\"output\":\"hello operator\"");

        Files.writeString(file, Files.readString(file).replace("hello ", "bonjour "));
        CliRunner.Result replaced = cli.run("flows", "apply", file.toString());
        assertThat(replaced.out()).contains("Replaced flow greet (version 2).");
        assertThat(cli.run("flows", "get", "greet").out()).contains("bonjour");

        assertThat(cli.run("flows", "run", "nope").exit()).isEqualTo(1);
        assertThat(cli.run("flows", "run", "greet", "--input", "{bad").exit()).isEqualTo(2);
        assertThat(cli.run("runs").exit()).isEqualTo(2);
        assertThat(cli.run("flows", "delete", "greet").out()).contains("Deleted flow greet.");
        assertThat(cli.run("flows").out().lines().toList()).hasSize(1);
        assertThat(cli.everything.toString()).doesNotContain(PASSWORD);
    }
}
