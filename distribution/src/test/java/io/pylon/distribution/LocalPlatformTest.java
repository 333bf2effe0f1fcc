package io.pylon.distribution;

import com.fasterxml.jackson.databind.JsonNode;
import io.pylon.core.http.Json;
import io.pylon.core.http.PodPaths;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * `pylon up` as real processes: eight pods answer where cluster.json says (on seven addresses), a flow's next run
 * happens on the other Integration pod when the one that ran it is killed, a data grid port taken by someone else
 * falls back, a second `pylon up` on the same state folder says in one line who runs there, the secrets stay
 * owner-only, a dying pod is reported, SIGINT stops all. On this checkout's own block 127.0.44.x, so that a
 * `./pylon up` on 127.0.0.1-7 beside it is left alone.
 */
class LocalPlatformTest {
    static final String FIRST_ADDRESS = "127.0.44.1";

    private UpProcess platform;

    @AfterEach
    void cleanUp() {
        if (platform != null) {
            platform.close();
        }
    }

    @Test
    void upRunsTheWholePlatformAndCtrlCLeavesNoJvmBehind(@TempDir Path state) throws Exception {
        // someone else's data grid member on cache-0's address: its grid port must fall back like an HTTP port
        ServerSocket taken = takePort("127.0.44.2", LocalPlan.GRID_PORT);
        platform = UpProcess.start(state, FIRST_ADDRESS, 150, IntegrationFailoverCheck.environment(FIRST_ADDRESS));
        Process up = platform.process();
        JsonNode root = platform.awaitCluster(state, 170);
        Path cluster = state.resolve("cluster.json");
        List<Long> podPids = platform.podPids();
        assertThat(root.path("environment").path("id").asText()).matches("[0-9a-f]{24}");
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();
        Set<String> urls = new HashSet<>();
        int pods = 0;
        for (String module : List.of("manager", "worker", "cache", "integration", "portal")) {
            JsonNode list = root.path("modules").path(module).path("pods");
            assertThat(list.size()).as(module).isEqualTo(module.equals("manager") || module.equals("portal") ? 1 : 2);
            for (JsonNode pod : list) {
                pods++;
                String url = pod.path("url").asText();
                assertThat(urls.add(url)).as("distinct url " + url).isTrue();
                HttpResponse<String> health = client.send(HttpRequest.newBuilder(URI.create(url + PodPaths.defaults().health())).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(health.statusCode()).as(url).isEqualTo(200);
                HttpResponse<String> version = client.send(HttpRequest.newBuilder(URI.create(url + PodPaths.defaults().version())).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(Json.MAPPER.readTree(version.body()).path("module").asText()).isEqualTo(module);
            }
        }
        assertThat(pods).isEqualTo(8);
        // the sample API is deployed and answers through every Worker pod
        assertThat(platform.output()).contains("sample API deployed as version");
        for (JsonNode worker : root.path("modules").path("worker").path("pods")) {
            HttpResponse<String> sample = client.send(HttpRequest.newBuilder(URI.create(worker.path("url").asText()
                    + "/sample/hello?x=1")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(sample.statusCode()).as(sample.body()).isEqualTo(200);
            assertThat(sample.body()).contains("\"service\":\"sample\"", "\"path\":\"/hello\"", "\"query\":\"x=1\"");
        }
        // the Portal talks to the Manager with its own account: the printed developer signs in, the sample is listed
        assertThat(platform.output()).contains("Portal ready").contains("developer " + LocalEnvironment.DEVELOPER);
        String portalUrl = root.path("modules").path("portal").path("pods").get(0).path("url").asText();
        HttpResponse<String> signIn = client.send(HttpRequest.newBuilder(URI.create(portalUrl + "/api/signin"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(
                        "{\"email\":\"" + root.path("developer").path("email").asText() + "\",\"password\":\""
                                + root.path("developer").path("password").asText() + "\"}")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(signIn.statusCode()).as(signIn.body()).isEqualTo(200);
        HttpResponse<String> catalog = client.send(HttpRequest.newBuilder(URI.create(portalUrl + "/api/catalog"))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertThat(catalog.body()).contains("\"name\":\"" + KeyedSampleProxy.NAME + "\"");
        // the published sample needs a key: without one every Worker answers 401
        for (String worker : UpProcess.urls(root, "worker")) {
            HttpResponse<String> keyed = client.send(HttpRequest.newBuilder(URI.create(worker + KeyedSampleProxy.PREFIX
                    + "/hello")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(keyed.statusCode()).as(keyed.body()).isEqualTo(401);
        }
        assertThat(urls).allMatch(url -> url.startsWith("http://127.0.44."));
        assertThat(UpProcess.urls(root, "integration")).as("the Integration pods share the sixth address")
                .containsExactly("http://127.0.44.6:8092", "http://127.0.44.6:8093");
        JsonNode caches = root.path("modules").path("cache").path("pods");
        assertThat(caches.get(0).path("grid").asText()).startsWith("127.0.44.2:").isNotEqualTo("127.0.44.2:5701");
        assertThat(caches.get(1).path("grid").asText()).isEqualTo("127.0.44.3:5701");
        assertThat(gridMembers(client, caches.get(1).path("url").asText(), root.path("environment").path("id").asText()))
                .as("both Cache pods in one data grid").isEqualTo(2);
        taken.close();

        // a second `pylon up` on the same state folder: one line, at once, naming the one that runs
        Process second = new ProcessBuilder(UpProcess.java(), "-cp", System.getProperty("java.class.path"),
                PylonCli.class.getName(), "up", "--state-dir", state.toString(), "--first-address", FIRST_ADDRESS)
                .redirectErrorStream(true).start();
        assertThat(second.waitFor(60, TimeUnit.SECONDS)).as("the second pylon up ends by itself").isTrue();
        String refusal = new String(second.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(second.exitValue()).as(refusal).isEqualTo(1);
        assertThat(refusal.strip()).doesNotContain("\n")
                .startsWith("pylon: a platform is already running from " + state)
                .contains("pid " + up.pid())
                .contains("Manager " + root.path("modules").path("manager").path("pods").get(0).path("url").asText());
        assertThat(cluster).as("the running platform's cluster.json is kept").exists();

        // the admin password and the environment ID are the owner's only
        assertThat(Files.getPosixFilePermissions(state)).isEqualTo(PosixFilePermissions.fromString("rwx------"));
        for (String secret : List.of("cluster.json", "admin-password", "environment-id", "portal-password",
                "developer-password")) {
            assertThat(Files.getPosixFilePermissions(state.resolve(secret))).as(secret)
                    .isEqualTo(PosixFilePermissions.fromString("rw-------"));
        }
        assertThat(platform.output()).containsPattern("(?m)^worker-0 +\\| .*Worker pod worker-0 listening").contains("Pylon is up");
        // a quiet start: no stack traces (Workers reaching for the data grid before it is up), no SLF4J notices, no
        // JVM warnings; the Workers say in one line that they wait when they do
        assertThat(platform.output()).doesNotContain("SLF4J").doesNotContain("\tat ").doesNotContain("Caused by")
                .doesNotContainPattern("(?m)^\\S+ +\\| [\\w.$]+(Exception|Error)(: |$)")
                .doesNotContainPattern("(?m)^\\S+ +\\| WARNING: ").doesNotContain("modular environment");
        // nor a warning of a pod's own, up to "Pylon is up" (db-scheduler's assumption about H2's time columns, the
        // grid copy before the Cache pods answer, the sample's upstream before it listens)
        String start = platform.output().substring(0, platform.output().indexOf("Pylon is up"));
        assertThat(start).doesNotContainPattern("(?m)^\\S+ +\\| \\S+ WARNING ");

        // the flow's next run after the Integration pod that ran the last one is killed -9 happens on the other pod
        new IntegrationFailoverCheck(root).run();
        awaitOutput(platform, "exited with code 137");

        // a pod that dies is reported
        long victim = root.path("modules").path("portal").path("pods").get(0).path("pid").asLong();
        ProcessHandle victimHandle = ProcessHandle.of(victim).orElseThrow();
        victimHandle.destroyForcibly();
        victimHandle.onExit().get(10, TimeUnit.SECONDS);
        awaitOutput(platform, "portal exited with code");

        // Ctrl-C
        new ProcessBuilder("kill", "-INT", String.valueOf(up.pid())).start().waitFor();
        assertThat(up.waitFor(45, TimeUnit.SECONDS)).as("pylon up exits on SIGINT; output:\n%s", platform.output()).isTrue();
        for (long pid : podPids) {
            assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).as("pod pid " + pid + " is gone").isFalse();
        }
        assertThat(platform.output()).contains("stopping 8 pods").contains("stopped");
        // clients first: no Worker or Manager spends its stop on a data grid or a Manager that left before it
        String stopping = platform.output().substring(platform.output().indexOf("stopping 8 pods"));
        assertThat(stopping).doesNotContainPattern("(?m)^(worker-\\d|manager) +\\| \\s+at ")
                .doesNotContain("Future.complete(Object) on completed future")
                .doesNotContain("Unable to get live cluster connection");
    }

    /** A listener on {@code host:port}, tried for up to 60 s (a connection of an earlier run may hold the port a while). */
    private static ServerSocket takePort(String host, int port) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            ServerSocket socket = new ServerSocket();
            socket.setReuseAddress(true);
            try {
                socket.bind(new InetSocketAddress(host, port));
                return socket;
            } catch (java.net.BindException e) {
                socket.close();
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                Thread.sleep(500);
            }
        }
    }

    /** The member count a Cache pod's datagrid diagnostics report. */
    private static int gridMembers(HttpClient client, String cacheUrl, String environmentId) throws Exception {
        HttpResponse<String> datagrid = client.send(HttpRequest.newBuilder(URI.create(cacheUrl + "/platform/diagnostics/datagrid?internal=true"))
                .header("Authorization", environmentId).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(datagrid.statusCode()).as(datagrid.body()).isEqualTo(200);
        return Json.MAPPER.readTree(datagrid.body()).findValues("members").stream().filter(JsonNode::isArray)
                .findFirst().map(JsonNode::size).orElse(-1);
    }

    private static void awaitOutput(UpProcess platform, String text) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!platform.output().contains(text) && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        assertThat(platform.output()).contains(text);
    }
}
