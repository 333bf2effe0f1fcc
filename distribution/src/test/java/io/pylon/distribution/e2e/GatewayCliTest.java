package io.pylon.distribution.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import io.pylon.core.http.Json;
import io.pylon.core.server.Pod;
import io.pylon.core.testing.TestPods;
import io.pylon.manager.ManagerModule;
import io.pylon.worker.WorkerModule;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code pylon proxies|deploy|rollout|gateway} against a real Manager and two real Worker pods that follow it. The
 * second pod runs its platform endpoints under another path segment ({@code ops}), so a proxy under {@code /ops} is
 * one the Manager accepts and that pod refuses: the deploy shows the refusal and exits 1, the old version serving.
 */
class GatewayCliTest {
    static final String PASSWORD = "gateway-cli-Passw0rd";
    static final String VIEWER_PASSWORD = "gateway-cli-Viewer-Passw0rd";
    @TempDir
    static Path home;
    static Pod manager;
    static Pod one;
    static Pod two;
    static HttpServer upstream;
    static CliRunner cli;

    @BeforeAll
    static void start() throws Exception {
        upstream = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        upstream.createContext("/", exchange -> {
            byte[] body = ("upstream " + exchange.getRequestURI().getPath()).getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        upstream.start();
        Map<String, String> settings = new HashMap<>();
        settings.put("pylon.manager.admin.password", PASSWORD);
        settings.put("pylon.manager.password.argon2-memory", "1024");
        settings.put("pylon.manager.password.argon2-iterations", "1");
        settings.put("pylon.manager.bootstrap.environment-urls", "worker=http://127.0.0.1:1,cache=http://127.0.0.1:2");
        manager = TestPods.start(new ManagerModule(), "manager-0", settings);
        one = worker("gw-one", Map.of("pylon.server.bind", "127.0.61.7")); // it reaches the Manager from 127.0.0.1: listed at its own address
        two = worker("gw-two", Map.of("pylon.path.segment", "ops"));
        cli = new CliRunner(home.resolve("pylon").resolve("config"));
        CliRunner.Result login = cli.runWithInput(PASSWORD + "\n", "login", TestPods.baseUrl(manager), "--username", "admin",
                "--password-stdin");
        assertThat(login.exit()).as(login.all()).isZero();
    }

    static Pod worker(String name, Map<String, String> extra) {
        Map<String, String> settings = new HashMap<>(extra);
        settings.put("pylon.worker.config-source", "manager");
        settings.put("pylon.worker.manager-url", TestPods.baseUrl(manager));
        settings.put("pylon.worker.config-poll-wait", "5s");
        settings.put("pylon.worker.config-manager-timeout", "2s");
        return TestPods.start(new WorkerModule(), name, settings);
    }

    @AfterAll
    static void stop() {
        for (Pod pod : new Pod[]{one, two, manager}) {
            if (pod != null) {
                pod.stop();
            }
        }
        if (upstream != null) {
            upstream.stop(0);
        }
    }

    @Test
    void applyDeployStatusRejectionAndRollback() throws Exception {
        Path file = home.resolve("orders.yaml");
        Files.writeString(file, """
                name: orders
                pathPrefix: /orders
                upstreams: [http://127.0.0.1:%d]
                rateLimit: {requests: -5, per: second}
                """.formatted(upstream.getAddress().getPort()));
        CliRunner.Result invalid = cli.run("proxies", "apply", "-f", file.toString());
        assertThat(invalid.exit()).as(invalid.all()).isEqualTo(1);
        assertThat(invalid.err()).contains("Proxy 'orders'", "'rateLimit.requests'");

        Files.writeString(file, Files.readString(file).replace("-5", "50"));
        CliRunner.Result created = cli.run("proxies", "apply", "-f", file.toString(), "--comment", "first");
        assertThat(created.exit()).as(created.all()).isZero();
        assertThat(created.out()).contains("Created proxy orders (revision 1).");

        CliRunner.Result list = cli.run("proxies");
        assertThat(list.out().lines().toList().get(0)).matches("NAME\\s+REVISION\\s+PATH\\s+UPSTREAMS\\s+UPDATED\\s+BY");
        assertThat(list.out().lines().toList().get(1)).matches("orders\\s+1\\s+/orders\\s+http://127\\.0\\.0\\.1:\\d+\\s+\\S+\\s+admin");
        CliRunner.Result yaml = cli.run("proxies", "get", "orders", "-o", "yaml");
        assertThat(yaml.out()).contains("name: \"orders\"").contains("pathPrefix: \"/orders\"");
        CliRunner.Result json = cli.run("proxies", "get", "orders", "-o", "json");
        assertThat(Json.MAPPER.readTree(json.out()).path("rateLimit").path("requests").asInt()).isEqualTo(50);

        // a change from standard input, as JSON: the next revision
        CliRunner.Result same = cli.runWithInput(json.out().replace("50", "60"), "proxies", "apply", "-f", "-");
        assertThat(same.exit()).as(same.all()).isZero();
        assertThat(same.out()).contains("Proxy orders is at revision 2.");

        CliRunner.Result deployed = cli.run("deploy", "test", "orders", "--comment", "go", "--wait", "30s");
        assertThat(deployed.exit()).as(deployed.all()).isZero();
        assertThat(deployed.out()).contains("Version 1 (").contains("applied by every pod");
        assertThat(deployed.out()).containsPattern("gw-one\\s+127\\.0\\.61\\.7\\s+applied\\s+1\\s+\\d+ms")
                .containsPattern("gw-two\\s+127\\.0\\.0\\.1\\s+applied\\s+1\\s+\\d+ms");
        assertThat(TestPods.get(one, "/orders/7").body()).isEqualTo("upstream /orders/7");
        assertThat(TestPods.get(two, "/orders/7").body()).isEqualTo("upstream /orders/7");

        CliRunner.Result status = cli.run("gateway", "status", "test");
        assertThat(status.exit()).as(status.all()).isZero();
        assertThat(status.out()).contains("Environment test: version 1")
                .containsPattern("gw-one\\s+127\\.0\\.61\\.7\\s+in-sync\\s+1\\s+[0-9a-f]{12}\\s+manager")
                .containsPattern("gw-two\\s+127\\.0\\.0\\.1\\s+in-sync\\s+1\\s+[0-9a-f]{12}\\s+manager");
        JsonNode statusJson = Json.MAPPER.readTree(cli.run("gateway", "status", "test", "-o", "json").out());
        assertThat(statusJson.path("pods")).hasSize(2);

        // a change pod two refuses (its platform paths are under /ops): exit 1, the refusal shown, version 1 still served
        Files.writeString(file, Files.readString(file).replace("/orders", "/ops/orders"));
        assertThat(cli.run("proxies", "apply", "-f", file.toString()).out()).contains("Proxy orders is at revision 3.");
        CliRunner.Result rejected = cli.run("deploy", "test", "orders", "--wait", "30s");
        assertThat(rejected.exit()).as(rejected.all()).isEqualTo(1);
        assertThat(rejected.out()).contains("NOT applied by every pod")
                .containsPattern("gw-two\\s+127\\.0\\.0\\.1\\s+rejected\\s+1\\s+\\d+ms\\s+Rejected version 2")
                .containsPattern("gw-one\\s+127\\.0\\.61\\.7\\s+applied\\s+2");
        assertThat(TestPods.get(two, "/orders/7").body()).isEqualTo("upstream /orders/7");
        assertThat(cli.run("gateway", "status", "test").out()).containsPattern("gw-two\\s+127\\.0\\.0\\.1\\s+rejected\\s+1");

        CliRunner.Result history = cli.run("rollout", "history", "test");
        assertThat(history.out().lines().toList().get(0)).matches("VERSION\\s+KIND\\s+FROM\\s+HASH\\s+PROXIES\\s+AUTHOR\\s+CREATED\\s+COMMENT");
        assertThat(history.out().lines().toList().get(1)).matches("2\\s+deploy\\s+-\\s+[0-9a-f]{12}\\s+1\\s+admin\\s+.*");
        assertThat(history.out().lines().toList().get(2)).matches("1\\s+deploy\\s+-\\s+[0-9a-f]{12}\\s+1\\s+admin\\s+\\S+\\s+go");

        CliRunner.Result snapshot = cli.run("rollout", "history", "test", "--version", "1");
        assertThat(snapshot.out()).contains("Version 1 of test (deploy by admin").containsPattern("\\norders\\s+2\\n");

        CliRunner.Result undo = cli.run("rollout", "undo", "test", "--wait", "30s");
        assertThat(undo.exit()).as(undo.all()).isZero();
        assertThat(undo.out()).contains("back to the proxies of version 1", "Version 3 (", "applied by every pod");
        assertThat(TestPods.get(one, "/orders/7").body()).isEqualTo("upstream /orders/7");
        JsonNode undoJson = Json.MAPPER.readTree(cli.run("rollout", "undo", "test", "--to-version", "3", "-o", "json").out());
        assertThat(undoJson.path("version").asLong()).isEqualTo(4);
        assertThat(cli.run("rollout", "history", "test", "-o", "json").out()).contains("\"kind\":\"rollback\"");

        CliRunner.Result deployedStill = cli.run("proxies", "delete", "orders");
        assertThat(deployedStill.exit()).isEqualTo(1);
        assertThat(cli.run("deploy", "test", "--undeploy", "orders").exit()).isZero();
        assertThat(cli.run("proxies", "delete", "orders").out()).contains("Deleted proxy orders.");
        assertThat(cli.run("proxies").out().lines().toList()).hasSize(1);
        assertThat(cli.everything.toString()).doesNotContain(PASSWORD);
    }

    @Test
    void badInputIsAUsageErrorNamingTheProblem() throws Exception {
        Path notYaml = home.resolve("bad.yaml");
        Files.writeString(notYaml, "name: [unclosed\n");
        assertUsage(cli.run("proxies", "apply", "-f", notYaml.toString()), "not valid YAML or JSON at line");
        Path nameless = home.resolve("nameless.json");
        Files.writeString(nameless, "{\"pathPrefix\": \"/x\"}");
        assertUsage(cli.run("proxies", "apply", "-f", nameless.toString()), "field 'name' is missing");
        assertUsage(cli.run("proxies", "apply", "-f", home.resolve("absent.yaml").toString()), "No file");
        assertUsage(cli.run("proxies", "apply"), "-f");
        assertUsage(cli.runWithInput("", "proxies", "apply", "-f", "-"), "Standard input is empty");
        assertUsage(cli.run("deploy", "test"), "at least one proxy");
        assertUsage(cli.run("deploy", "test", "orders", "--wait", "soon"), "--wait expects");
        assertUsage(cli.run("deploy", "test", "orders", "--wait", "5m"), "at most 120s");
        assertUsage(cli.run("deploy", "test", "orders@x"), "NAME@REVISION");
        assertUsage(cli.run("rollout", "undo", "test", "--to-version", "0"), "--to-version");
        assertUsage(cli.run("rollout"), "subcommand");
        assertUsage(cli.run("deploy", "orders"), "the first argument, orders, is the environment");
        assertUsage(cli.run("gateway", "status", "test", "--env", "other"), "names environment test and --env names other");
        assertUsage(cli.run("rollout", "history", "test", "--env", "other"), "name one");
        assertUsage(cli.run("deploy", "--env", "other", "test", "orders"), "name one");
        assertUsage(cli.run("proxies", "get", "orders", "-o", "xml"), "xml");

        // a viewer reads but cannot deploy: exit 3 naming the role needed
        assertThat(cli.runWithInput(VIEWER_PASSWORD + "\n" + VIEWER_PASSWORD + "\n", "users", "create", "reader", "--role", "viewer",
                "--password-stdin").exit()).isZero();
        CliRunner viewer = new CliRunner(home.resolve("viewer").resolve("config"));
        assertThat(viewer.runWithInput(VIEWER_PASSWORD + "\n", "login", TestPods.baseUrl(manager), "--username", "reader",
                "--password-stdin").exit()).isZero();
        assertThat(viewer.run("gateway", "status", "test").exit()).isZero();
        CliRunner.Result refused = viewer.run("deploy", "test", "anything");
        assertThat(refused.exit()).as(refused.all()).isEqualTo(3);
        assertThat(refused.err()).contains("requires the operator role").doesNotContain("admin role");

        // without ENV: --env, else the context's, else the Manager's only environment
        for (String[] implicit : new String[][]{{"gateway", "status"}, {"gateway", "status", "--env", "test"},
                {"rollout", "history"}, {"rollout", "history", "--env", "test"}}) {
            CliRunner.Result shown = cli.run(implicit);
            assertThat(shown.exit()).as(shown.all()).isZero();
        }
        assertThat(cli.run("gateway", "status").out()).startsWith("Environment test:");
        assertThat(cli.run("gateway", "status", "--env", "nowhere").err()).contains("nowhere");

        CliRunner.Result missing = cli.run("gateway", "status", "nowhere");
        assertThat(missing.exit()).as(missing.all()).isEqualTo(1);
        assertThat(missing.err()).contains("nowhere");
        for (String[] help : new String[][]{{"proxies", "--help"}, {"deploy", "--help"}, {"rollout", "undo", "--help"},
                {"gateway", "status", "--help"}}) {
            CliRunner.Result shown = cli.run(help);
            assertThat(shown.exit()).as(String.join(" ", help)).isZero();
            assertThat(shown.out()).contains("Usage: pylon " + help[0]);
        }
        assertThat(cli.run("deploy", "--help").out()).contains("--undeploy", "--wait", "--comment");
    }

    private static void assertUsage(CliRunner.Result result, String message) {
        assertThat(result.exit()).as(result.all()).isEqualTo(2);
        assertThat(result.err()).as(result.all()).contains(message);
    }

}
