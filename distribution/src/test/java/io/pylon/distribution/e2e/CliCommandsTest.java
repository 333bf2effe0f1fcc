package io.pylon.distribution.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import io.pylon.core.http.Json;
import io.pylon.core.testing.TestPods;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.List;
import java.util.zip.GZIPInputStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every non-interactive {@code pylon} command against a real Manager with real Worker and Cache pods (CliPlatform),
 * run in-process through the same command line as main, with exit codes, outputs and the config file checked.
 */
class CliCommandsTest {
    @TempDir
    static Path home;

    static LoopbackPlatform platform;
    static CliRunner cli;
    static String adminToken;

    @BeforeAll
    static void logIn() {
        platform = CliPlatform.shared();
        cli = new CliRunner(home.resolve("pylon").resolve("config"));
        CliRunner.Result viewer = cli.runWithInput(LoopbackPlatform.VIEWER_PASSWORD + "\n", "login", platform.managerUrl(),
                "--username", "viewer", "--password-stdin", "--name", "viewer-ctx", "--env", LoopbackPlatform.ENVIRONMENT);
        assertThat(viewer.exit()).as(viewer.all()).isZero();
        CliRunner.Result admin = cli.runWithInput(LoopbackPlatform.ADMIN_PASSWORD + "\n", "login", platform.managerUrl(),
                "--username", "admin", "--password-stdin", "--name", "admin-ctx", "--env", LoopbackPlatform.ENVIRONMENT);
        assertThat(admin.exit()).as(admin.all()).isZero();
        assertThat(admin.out()).contains("Logged in to " + platform.managerUrl() + " as admin (context admin-ctx");
        adminToken = config().path("contexts").get(1).path("token").asText();
    }

    @AfterAll
    static void noSecretWasEverPrinted() {
        String printed = cli.everything.toString();
        assertThat(adminToken).startsWith("pylon_at_");
        assertThat(printed).doesNotContain(adminToken).doesNotContain(LoopbackPlatform.ADMIN_PASSWORD)
                .doesNotContain(LoopbackPlatform.VIEWER_PASSWORD).doesNotContain(TestPods.ENVIRONMENT_ID);
        // errors are one line each, never a stack trace (standard output may hold a thread dump, which has frames)
        assertThat(cli.errors.toString()).doesNotContain("Exception").doesNotContain("\tat ").doesNotContain("\n    at ");
    }

    static JsonNode config() {
        try {
            return Json.MAPPER.readTree(home.resolve("pylon").resolve("config").toFile());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void loginStoresTheTokenOwnerOnlyAndContextsSwitchLikeKubectl() throws Exception {
        Path file = home.resolve("pylon").resolve("config");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file.getParent()))).isEqualTo("rwx------");
        assertThat(config().path("currentContext").asText()).isEqualTo("admin-ctx");

        CliRunner.Result contexts = cli.run("config", "get-contexts");
        assertThat(contexts.exit()).isZero();
        assertThat(contexts.out().lines().toList()).hasSize(3);
        assertThat(contexts.out()).containsPattern("\\*\\s+admin-ctx\\s+" + platform.managerUrl() + "\\s+admin\\s+e2e\\s+until ")
                .contains("viewer-ctx").doesNotContain("pylon_at_");

        CliRunner.Result asViewer = cli.run("diag", "env", "worker", "--context", "viewer-ctx");
        assertThat(asViewer.exit()).as(asViewer.all()).isEqualTo(3);
        assertThat(asViewer.err()).contains("admin role");
        assertThat(cli.run("config", "current-context").out().strip()).isEqualTo("admin-ctx");
        assertThat(cli.run("config", "use-context", "nope").exit()).isEqualTo(2);
        assertThat(cli.run("pods", "--context", "nope").exit()).isEqualTo(2);
    }

    @Test
    void wrongPasswordIsExit3AndBadInputIsExit2() {
        CliRunner.Result wrong = cli.runWithInput("not-the-password\n", "login", platform.managerUrl(), "--username", "admin",
                "--password-stdin", "--name", "wrong");
        assertThat(wrong.exit()).isEqualTo(3);
        assertThat(wrong.err()).isEqualTo("pylon: The Manager at " + platform.managerUrl() + " refused the username or password.\n");
        assertThat(cli.run("login", "ftp://example.org", "--username", "a", "--password-stdin").exit()).isEqualTo(2);
        assertThat(cli.runWithInput("", "login", platform.managerUrl(), "--username", "a", "--password-stdin").exit()).isEqualTo(2);
        // without a terminal there is nobody to ask for the password
        CliRunner.Result noTerminal = cli.run("login", platform.managerUrl(), "--username", "admin");
        assertThat(noTerminal.exit()).isEqualTo(2);
        assertThat(noTerminal.err()).contains("--password-stdin");
        assertThat(cli.run("pods", "manager").exit()).isEqualTo(2);
        assertThat(cli.run("pods", "-o", "xml").exit()).isEqualTo(2);
        assertThat(cli.run("collect", "--every", "10ms").exit()).isEqualTo(2);
        assertThat(cli.run("diag", "nosuch", "worker").exit()).isEqualTo(2);
        assertThat(cli.run("frobnicate").exit()).isEqualTo(2);
        assertThat(config().path("contexts").size()).isEqualTo(2);
    }

    @Test
    void podsListsEveryPodInEveryFormat() throws Exception {
        CliRunner.Result table = cli.run("pods");
        assertThat(table.exit()).as(table.all()).isZero();
        List<String> lines = table.out().lines().toList();
        assertThat(lines.getFirst()).startsWith("NAME").contains("MODULE", "STATUS", "READY", "VERSION", "UPTIME", "HEAP",
                "THREADS", "DEADLOCKS", "FLAGS");
        assertThat(lines).hasSize(5);
        assertThat(lines.get(1)).matches("worker-0\\s+worker\\s+Running\\s+yes\\s+\\S+\\s+\\d+[smhd]\\S*\\s+\\S+/\\S+\\s+\\d+\\s+0");
        assertThat(table.out()).contains("worker-1").contains("cache-0").contains("cache-1").doesNotContain("\u001b[");

        CliRunner.Result noHeaders = cli.run("pods", "cache", "--no-headers");
        assertThat(noHeaders.out().lines().toList()).hasSize(2).allMatch(l -> l.startsWith("cache-"));

        CliRunner.Result wide = cli.run("pods", "worker", "-o", "wide");
        assertThat(wide.out().lines().findFirst().orElseThrow()).contains("CPU", "BLOCKED", "CONNECTIONS", "PENDING");

        CliRunner.Result json = cli.run("pods", "-o", "json");
        JsonNode pods = Json.MAPPER.readTree(json.out());
        assertThat(pods).hasSize(4);
        assertThat(pods.get(0).path("name").asText()).isEqualTo("worker-0");
        assertThat(pods.get(0).path("heapUsed").asLong()).isPositive();
        assertThat(pods.get(0).path("ready").asBoolean()).isTrue();

        CliRunner.Result yaml = cli.run("pods", "cache", "-o", "yaml");
        assertThat(yaml.out()).contains("- name: \"cache-0\"").contains("module: \"cache\"");
    }

    @Test
    void podsAsksTheManagerOncePerModuleForTheSectionsAndTheComparison() throws Exception {
        try (CountingProxy proxy = new CountingProxy(platform.managerUrl())) {
            CliRunner counted = new CliRunner(home.resolve("counted").resolve("config"));
            CliRunner.Result login = counted.runWithInput(LoopbackPlatform.VIEWER_PASSWORD + "\n", "login", proxy.url(),
                    "--username", "viewer", "--password-stdin", "--env", LoopbackPlatform.ENVIRONMENT);
            assertThat(login.exit()).as(login.all()).isZero();
            proxy.clear();

            CliRunner.Result pods = counted.run("pods", "-o", "wide");
            assertThat(pods.exit()).as(pods.all()).isZero();
            assertThat(pods.out().lines().toList()).hasSize(5);
            assertThat(pods.out()).containsPattern("worker-0\\s+worker\\s+Running\\s+yes");
            String console = "GET /apiops/environments/" + LoopbackPlatform.ENVIRONMENT + "/diagnostics/";
            assertThat(proxy.requests()).containsExactlyInAnyOrder(
                    console + "worker/compare?sections=jvm%2Cthreads%2Chealth%2Cconnections",
                    console + "cache/compare?sections=jvm%2Cthreads%2Chealth");

            proxy.clear();
            assertThat(counted.run("pods", "cache").exit()).isZero();
            assertThat(proxy.requests()).containsExactly(console + "cache/compare?sections=jvm%2Cthreads%2Chealth");
        }
    }

    @Test
    void aPodOrModuleThatFailsIsExit1() {
        CliRunner.Result broken = cli.run("pods", "--env", CliPlatform.BROKEN);
        assertThat(broken.exit()).as(broken.all()).isEqualTo(1);
        assertThat(broken.out()).containsPattern("\\(all\\)\\s+worker\\s+Error 50[24]").containsPattern("\\(all\\)\\s+cache\\s+Error 50[24]");
        CliRunner.Result health = cli.run("health", "--env", CliPlatform.BROKEN);
        assertThat(health.exit()).isEqualTo(1);
        assertThat(health.out()).containsPattern("worker\\s+UNREACHABLE").containsPattern("portal\\s+NOT CONFIGURED");
        assertThat(cli.run("pods", "--env", "nosuch").exit()).isEqualTo(1);
    }

    @Test
    void diagPrintsThePodsAnswers() throws Exception {
        CliRunner.Result jvm = cli.run("diag", "jvm", "worker");
        assertThat(jvm.exit()).as(jvm.all()).isZero();
        JsonNode body = Json.MAPPER.readTree(jvm.out());
        assertThat(body.path("pods")).hasSize(2);
        assertThat(body.path("pods").get(1).path("jvm").path("memory").path("heap").path("used").asLong()).isPositive();

        CliRunner.Result one = cli.run("diag", "datagrid", "cache", "--pod", "cache-1");
        assertThat(one.exit()).as(one.all()).isZero();
        assertThat(Json.MAPPER.readTree(one.out()).path("podName").asText()).isEqualTo("cache-1");

        CliRunner.Result yaml = cli.run("diag", "health", "cache", "--pod", "cache-0", "-o", "yaml");
        assertThat(yaml.out()).contains("podName: \"cache-0\"").contains("health:");

        CliRunner.Result env = cli.run("diag", "env", "worker", "--pod", "worker-0");
        assertThat(env.exit()).isZero();
        assertThat(env.out()).contains("\"env\"").doesNotContain(TestPods.ENVIRONMENT_ID);
        assertThat(cli.run("diag", "heapdump", "worker").exit()).isEqualTo(2);
    }

    @Test
    void healthAndVersionReadTheModulesOwnEndpoints() throws Exception {
        CliRunner.Result health = cli.run("health");
        assertThat(health.exit()).as(health.all()).isZero();
        assertThat(health.out()).containsPattern("manager\\s+UP\\s+200\\s+\\d+ms\\s+" + platform.managerUrl())
                .containsPattern("worker\\s+UP\\s+200").containsPattern("cache\\s+UP\\s+200")
                .containsPattern("integration\\s+NOT CONFIGURED");
        CliRunner.Result version = cli.run("version", "worker", "-o", "json");
        assertThat(version.exit()).isZero();
        JsonNode answer = Json.MAPPER.readTree(version.out());
        assertThat(answer.get(0).path("version").path("module").asText()).isEqualTo("worker");
        assertThat(cli.run("version", "gateway").exit()).isEqualTo(2);
    }

    @Test
    void dumpsWriteThreadTextAndCompleteHeapDumps() throws Exception {
        Path threads = home.resolve("worker-1.txt");
        CliRunner.Result threadDump = cli.run("dump", "threads", "worker-1", "-o", threads.toString());
        assertThat(threadDump.exit()).as(threadDump.all()).isZero();
        assertThat(Files.readString(threads)).contains("\"main\"").contains("java.lang.Thread.State");

        CliRunner.Result toStdout = cli.run("dump", "threads", "cache-0");
        assertThat(toStdout.exit()).isZero();
        assertThat(toStdout.out()).contains("java.lang.Thread.State");

        Path heap = home.resolve("cache-1.hprof.gz");
        CliRunner.Result heapDump = cli.run("dump", "heap", "cache-1", "-o", heap.toString());
        assertThat(heapDump.exit()).as(heapDump.all()).isZero();
        // not a terminal: no progress bar, one closing line
        assertThat(heapDump.err()).startsWith("Wrote the heap dump of cache-1 to " + heap).doesNotContain("\r");
        try (InputStream in = new GZIPInputStream(Files.newInputStream(heap))) {
            assertThat(new String(in.readNBytes(18), StandardCharsets.US_ASCII)).isEqualTo("JAVA PROFILE 1.0.2");
            assertThat(in.transferTo(java.io.OutputStream.nullOutputStream())).isGreaterThan(1_000_000);
        }
        assertThat(home.resolve("cache-1.hprof.gz.part")).doesNotExist();

        CliRunner.Result unknown = cli.run("dump", "heap", "worker-9", "-o", home.resolve("x.hprof").toString());
        assertThat(unknown.exit()).isEqualTo(1);
        assertThat(unknown.err()).contains("No pod named 'worker-9'");
        assertThat(home.resolve("x.hprof")).doesNotExist();
        assertThat(home.resolve("x.hprof.part")).doesNotExist();
    }

    @Test
    void collectAppendsOneAllRecordPerPodPerRound() throws Exception {
        Path file = home.resolve("fleet.jsonl");
        CliRunner.Result collect = cli.run("collect", "--every", "1s", "--rounds", "2", "-o", file.toString());
        assertThat(collect.exit()).as(collect.all()).isZero();
        List<String> lines = Files.readAllLines(file);
        assertThat(lines).hasSize(8);
        for (String line : lines) {
            assertThat(line).startsWith("{\"collectedAt\":\"");
            JsonNode record = Json.MAPPER.readTree(line);
            assertThat(record.fieldNames()).toIterable().startsWith("collectedAt", "podName", "podIp", "namespace", "nodeName",
                    "envName", "module", "version");
            assertThat(record.path("jvm").path("memory").path("heap").path("max").isNumber()).isTrue();
            assertThat(record.path("threads").path("executorPools").has("platform-async")).isTrue();
            assertThat(record.path("threadDump").isTextual()).isTrue();
            assertThat(record.path("health").path("checks").path("threads").has("deadlocks")).isTrue();
            assertThat(record.path("responseTime").isNumber()).isTrue();
            assertThat(Instant.parse(record.path("collectedAt").asText())).isBeforeOrEqualTo(Instant.now());
        }
        assertThat(lines.stream().map(l -> l.substring(16, l.indexOf('"', 16))).distinct()).hasSize(2);
        assertThat(lines).anyMatch(l -> l.contains("\"connections\":{")).anyMatch(l -> l.contains("\"datagrid\":{"));
        assertThat(Files.readAllLines(file).getFirst()).contains("\"env\":{");

        CliRunner.Result again = cli.run("collect", "worker", "--every", "1s", "--rounds", "1", "-o", file.toString(), "--context", "viewer-ctx");
        assertThat(again.exit()).as(again.all()).isZero();
        List<String> appended = Files.readAllLines(file);
        assertThat(appended).hasSize(10);
        // a viewer's records come without the env section, which the Manager strips
        assertThat(appended.getLast()).doesNotContain("\"env\":{").contains("\"podName\":\"worker-1\"");

        CliRunner.Result broken = cli.run("collect", "--every", "1s", "--rounds", "1", "--env", CliPlatform.BROKEN);
        assertThat(broken.exit()).isEqualTo(1);
        assertThat(broken.err()).contains("worker").contains("cache");
    }

    @Test
    void adminCommandsManageUsersTokensEnvironmentsAndAudit() throws Exception {
        CliRunner.Result created = cli.runWithInput("Operator-Passw0rd-1\n", "users", "create", "operator", "--role", "viewer", "--password-stdin");
        assertThat(created.exit()).as(created.all()).isZero();
        assertThat(cli.run("users").out()).containsPattern("operator\\s+viewer\\s+true\\s+false");
        assertThat(cli.run("users", "set-role", "operator", "admin").exit()).isZero();
        assertThat(cli.run("users", "disable", "operator").exit()).isZero();
        assertThat(cli.run("users", "-o", "json").out()).contains("\"username\":\"operator\",\"role\":\"admin\",\"enabled\":false");
        assertThat(cli.run("users", "enable", "operator").exit()).isZero();
        assertThat(cli.runWithInput("Operator-Passw0rd-2\n", "users", "reset-password", "operator", "--password-stdin").exit()).isZero();
        assertThat(cli.run("users", "unlock", "operator").exit()).isZero();
        CliRunner.Result taken = cli.runWithInput("Operator-Passw0rd-1\n", "users", "create", "operator", "--password-stdin");
        assertThat(taken.exit()).isEqualTo(1);
        assertThat(taken.err()).contains("409");
        assertThat(cli.run("users", "delete", "operator").exit()).isZero();
        assertThat(cli.run("users", "--context", "viewer-ctx").exit()).isEqualTo(3);

        // a personal token: shown once on stdout, then usable for login --token-stdin
        CliRunner.Result token = cli.run("tokens", "create", "ci", "--expires", "1d");
        assertThat(token.exit()).as(token.all()).isZero();
        String value = token.out().strip();
        assertThat(value).startsWith("pylon_pat_");
        assertThat(token.err()).contains("not shown again").doesNotContain(value);
        CliRunner.Result withToken = cli.runWithInput(value + "\n", "login", platform.managerUrl(), "--token-stdin", "--name", "pat-ctx");
        assertThat(withToken.exit()).as(withToken.all()).isZero();
        assertThat(withToken.out()).contains("as admin").doesNotContain(value);
        assertThat(cli.run("pods", "cache", "--context", "pat-ctx", "--env", LoopbackPlatform.ENVIRONMENT).exit()).isZero();
        CliRunner.Result list = cli.run("tokens");
        assertThat(list.out()).contains("ci").doesNotContain("pylon_pat_");
        String id = Json.MAPPER.readTree(cli.run("tokens", "-o", "json").out()).get(0).path("id").asText();
        assertThat(cli.run("tokens", "revoke", id).exit()).isZero();
        CliRunner.Result revoked = cli.run("pods", "--context", "pat-ctx", "--env", LoopbackPlatform.ENVIRONMENT);
        assertThat(revoked.exit()).isEqualTo(3);
        assertThat(revoked.err()).isEqualTo("pylon: The session of context 'pat-ctx' has expired or was revoked: log in again with `pylon login "
                + platform.managerUrl() + "`.\n");
        assertThat(cli.run("config", "delete-context", "pat-ctx").exit()).isZero();
        cli.run("config", "use-context", "admin-ctx");

        // environments: never the ID, except into the file rotate-id is given
        CliRunner.Result environments = cli.run("environments");
        assertThat(environments.out()).contains("e2e").contains(CliPlatform.BROKEN);
        assertThat(cli.run("envs", "-o", "json").out()).doesNotContain("environmentId");
        CliRunner.Result get = cli.run("environments", "get", "e2e");
        assertThat(get.out()).contains("name: \"e2e\"").doesNotContain("environmentId");
        assertThat(cli.run("environments", "create", "scratch", "--type", "test", "--url", "worker=http://127.0.18.97:8091",
                "--url", "cache=http://127.0.18.97:8090").exit()).isZero();
        Path idFile = home.resolve("scratch-id");
        CliRunner.Result rotated = cli.run("environments", "rotate-id", "scratch", "--id-file", idFile.toString());
        assertThat(rotated.exit()).as(rotated.all()).isZero();
        String newId = Files.readString(idFile);
        assertThat(newId).matches("[0-9a-f]{24}");
        assertThat(rotated.out()).doesNotContain(newId);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(idFile))).isEqualTo("rw-------");
        assertThat(cli.run("environments", "delete", "scratch").exit()).isZero();

        CliRunner.Result audit = cli.run("audit", "--limit", "50");
        assertThat(audit.exit()).isZero();
        assertThat(audit.out()).contains("user.created").contains("environment.id-rotated").contains("token.issued");
        List<String> events = cli.run("audit", "--limit", "5", "-o", "json").out().lines().toList();
        assertThat(events).hasSize(5);
        assertThat(Json.MAPPER.readTree(events.getLast()).path("id").asLong())
                .isGreaterThan(Json.MAPPER.readTree(events.getFirst()).path("id").asLong());
    }

    @Test
    void auditFollowPrintsNewEventsAsTheyHappen() throws Exception {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        var cliIo = new io.pylon.distribution.cli.CliIo(new ByteArrayInputStream(new byte[0]),
                new java.io.PrintStream(out, true, StandardCharsets.UTF_8), new java.io.PrintStream(java.io.OutputStream.nullOutputStream()),
                java.util.Map.of("PYLON_CONFIG", home.resolve("pylon").resolve("config").toString()), false);
        Thread follow = Thread.ofPlatform().start(() -> io.pylon.distribution.PylonCli.commandLine(cliIo)
                .execute("audit", "--limit", "1", "--follow", "--poll", "200ms"));
        try {
            Thread.sleep(1000);
            CliRunner.Result created = cli.runWithInput("Follower-Passw0rd-1\n", "users", "create", "follower", "--password-stdin");
            assertThat(created.exit()).isZero();
            long deadline = System.nanoTime() + 20_000_000_000L;
            while (!out.toString(StandardCharsets.UTF_8).contains("user:follower") && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            assertThat(out.toString(StandardCharsets.UTF_8)).containsPattern("user\\.created +user:follower");
        } finally {
            follow.interrupt();
            follow.join(5000);
            cli.run("users", "delete", "follower");
        }
        assertThat(follow.isAlive()).isFalse();
    }

    @Test
    void anExpiredTokenGivesOneLineAndExit3() throws Exception {
        Path other = home.resolve("expired").resolve("config");
        Files.createDirectories(other.getParent());
        Files.writeString(other, "{\"currentContext\":\"old\",\"contexts\":[{\"name\":\"old\",\"manager\":\"" + platform.managerUrl()
                + "\",\"user\":\"admin\",\"token\":\"pylon_at_x\",\"expiresAt\":\"2020-01-01T00:00:00Z\"}]}");
        CliRunner expired = new CliRunner(other);
        CliRunner.Result result = expired.run("pods");
        assertThat(result.exit()).isEqualTo(3);
        assertThat(result.err()).isEqualTo("pylon: The session of context 'old' expired at 2020-01-01T00:00:00Z: log in again with `pylon login "
                + platform.managerUrl() + "`.\n");
        CliRunner none = new CliRunner(home.resolve("none").resolve("config"));
        assertThat(none.run("pods").exit()).isEqualTo(3);
        Files.writeString(other, "{not json pylon_at_secret");
        CliRunner.Result broken = expired.run("pods");
        assertThat(broken.exit()).isEqualTo(1);
        assertThat(broken.err()).contains("is not valid").doesNotContain("pylon_at_secret");
    }

    @Test
    void logoutRevokesTheTokenAndDropsTheContext() {
        CliRunner.Result login = cli.runWithInput(LoopbackPlatform.VIEWER_PASSWORD + "\n", "login", platform.managerUrl(),
                "--username", "viewer", "--password-stdin", "--name", "short-lived");
        assertThat(login.exit()).isZero();
        String token = config().path("contexts").findValues("token").getLast().asText();
        CliRunner.Result logout = cli.run("logout", "--context", "short-lived");
        assertThat(logout.exit()).as(logout.all()).isZero();
        assertThat(config().toString()).doesNotContain("short-lived").doesNotContain(token);
        assertThat(TestPods.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(platform.managerUrl() + "/apiops/auth/me"))
                .header("Authorization", "Bearer " + token).build()).statusCode()).isEqualTo(401);
        cli.run("config", "use-context", "admin-ctx");
    }

    @Test
    void topWithoutATerminalPrintsOneFrameAndSetEnvChangesTheDefault() {
        CliRunner.Result top = cli.run("top", "worker", "--sort", "threads");
        assertThat(top.exit()).as(top.all()).isZero();
        assertThat(top.out()).startsWith("pylon top - e2e - 2 pods, 0 failing").contains("sorted by threads")
                .containsPattern("worker-[01]\\s+\\d+(\\.\\d)?%").doesNotContain("\u001b[");
        assertThat(cli.run("top", "--sort", "colour").exit()).isEqualTo(2);

        assertThat(cli.run("config", "set-env", CliPlatform.BROKEN, "--context", "viewer-ctx").exit()).isZero();
        assertThat(cli.run("pods", "--context", "viewer-ctx").exit()).isEqualTo(1);
        assertThat(cli.run("config", "set-env", LoopbackPlatform.ENVIRONMENT, "--context", "viewer-ctx").exit()).isZero();
        assertThat(cli.run("pods", "--context", "viewer-ctx").exit()).isZero();
    }

    @Test
    void completionScriptsCoverTheCommands() {
        CliRunner.Result bash = cli.run("completion", "bash");
        assertThat(bash.exit()).isZero();
        assertThat(bash.out()).contains("complete -F").contains("pods").contains("top").contains("--context");
        assertThat(cli.run("completion", "zsh").out()).startsWith("autoload -U +X compinit");
        assertThat(cli.run("completion", "fish").exit()).isEqualTo(2);
    }
}
