package io.pylon.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import io.pylon.core.http.Json;
import io.pylon.core.testing.TestPods;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The image, built from deploy/kubernetes/Dockerfile with buildah on a locally made base, running Manager, two
 * Workers and two Cache pods with podman under their manifests' security context and limits (non-root, read-only
 * root file system, all capabilities dropped, memory limit), host networking, each pod bound to its own address
 * 127.0.21.30-34; the pods of the AOT cache tests (another memory limit, unusable JVM options, the cache turned off)
 * on 127.0.21.36-38, and the image's build trains on 127.0.21.35 (scripts/container/image.sh). Figures (image size,
 * start to first health 200, RSS, classes from the cache) are printed as "figure:" lines for bench/containers/run.sh.
 */
class ContainersTest {
    private static final Duration PATIENCE = Duration.ofSeconds(240);
    private static final Map<String, String> AUTH = Map.of("Authorization", TestPods.ENVIRONMENT_ID);

    /** Every class the JVM loads, with its source, into the pod's data volume. */
    private static final String CLASS_LOAD_LOG = "-Xlog:class+load:file=/var/lib/pylon/class-load.log";

    private static String image;
    private static List<JsonNode> objects;
    private static Map<String, String> base;
    private static PodmanPod manager;
    private static final List<PodmanPod> workers = new ArrayList<>();
    private static final List<PodmanPod> caches = new ArrayList<>();
    private static final List<PodmanPod> all = new ArrayList<>();

    @BeforeAll
    static void startContainers() throws Exception {
        image = Command.run(Map.of(), 1800, List.of(DeployTools.ROOT.resolve("scripts/container/image.sh").toString())).ok().strip();
        figure("image size MB", Command.run(PodmanPod.PODMAN, "image", "inspect", "--format", "{{.Size}}", image).ok().strip(),
                s -> String.valueOf(Long.parseLong(s) / 1_000_000));
        objects = Manifests.render("deploy/kubernetes");
        // what the Secret pylon-environment and the ConfigMap pylon-settings give the pods in a cluster
        base = Map.of("PYLON_ENVIRONMENT_ID", TestPods.ENVIRONMENT_ID, "PYLON_POD_NAMESPACE", "pylon",
                "PYLON_ENVIRONMENT_NAME", "containers");
        String workerPeers = "worker-0=http://127.0.21.31:8091,worker-1=http://127.0.21.32:8091";
        String cachePeers = "cache-0=http://127.0.21.33:8090,cache-1=http://127.0.21.34:8090";
        String grid = "127.0.21.33:5701,127.0.21.34:5701";

        manager = new PodmanPod(image, Manifests.deployment(objects, "pylon-manager"), "manager-0", "127.0.21.30", base);
        for (int i = 0; i < 2; i++) {
            // the manifest's Manager URL is the cluster's Service name; here the Manager container's address
            Map<String, String> env = with(base, Map.of("PYLON_DISCOVERY_MODE", "static", "PYLON_DISCOVERY_STATIC", workerPeers,
                    "PYLON_CACHE_ADDRESSES", grid, "PYLON_WORKER_MANAGER_URL", "http://127.0.21.30:8080"));
            if (i == 1) {
                // JVM options of the Deployment still reach the JVM, and show where its classes came from
                env = with(env, Map.of("JAVA_TOOL_OPTIONS", CLASS_LOAD_LOG));
            }
            workers.add(new PodmanPod(image, Manifests.deployment(objects, "pylon-worker"), "worker-" + i, "127.0.21.3" + (1 + i), env));
            caches.add(new PodmanPod(image, Manifests.deployment(objects, "pylon-cache"), "cache-" + i, "127.0.21.3" + (3 + i),
                    with(base, Map.of("PYLON_DISCOVERY_MODE", "static", "PYLON_DISCOVERY_STATIC", cachePeers, "PYLON_GRID_MEMBERS", grid))));
        }
        all.add(manager);
        all.addAll(caches);
        all.addAll(workers);
        all.forEach(PodmanPod::start);
        for (PodmanPod pod : all) {
            figure("start to first health 200 ms, " + pod.name, String.valueOf(pod.awaitHealthy(PATIENCE).toMillis()), s -> s);
        }
    }

    @AfterAll
    static void stopContainers() {
        all.forEach(PodmanPod::close);
    }

    private static Map<String, String> with(Map<String, String> a, Map<String, String> b) {
        Map<String, String> both = new java.util.HashMap<>(a);
        both.putAll(b);
        return both;
    }

    private static void figure(String what, String value, java.util.function.UnaryOperator<String> format) {
        System.out.println("figure: " + what + ": " + format.apply(value));
    }

    @Test
    void everyContainerRunsWithTheManifestsRestrictionsOnHostNetworking() {
        for (PodmanPod pod : all) {
            JsonNode inspect = pod.inspect();
            JsonNode host = inspect.path("HostConfig");
            assertThat(host.path("NetworkMode").asText()).as(pod.name).isEqualTo("host");
            assertThat(host.path("ReadonlyRootfs").asBoolean()).as(pod.name).isTrue();
            assertThat(host.path("Memory").asLong()).as(pod.name).isEqualTo(pod.memoryLimitBytes);
            assertThat(host.path("SecurityOpt").toString()).as(pod.name).contains("no-new-privileges");
            assertThat(inspect.path("Config").path("User").asText()).as(pod.name).isEqualTo("10001:10001");
            assertThat(inspect.path("EffectiveCaps").isEmpty() || inspect.path("EffectiveCaps").isNull()).as("%s caps %s", pod.name,
                    inspect.path("EffectiveCaps")).isTrue();
        }
    }

    @Test
    void everyPodListensOnlyOnItsOwnLoopbackAddress() throws IOException {
        for (PodmanPod pod : all) {
            Set<String> listening = ListeningSockets.of(pod.pid());
            assertThat(listening).as(pod.name).isNotEmpty();
            assertThat(listening).as(pod.name).allMatch(a -> a.startsWith(pod.address + ":"));
        }
    }

    @Test
    void everyPodAnswersHealthAndVersion() throws IOException {
        for (PodmanPod pod : all) {
            HttpResponse<String> health = pod.get("/platform/management/health", Map.of());
            HttpResponse<String> version = pod.get("/platform/management/version", Map.of());
            assertThat(health.statusCode()).as(pod.name + " " + health.body()).isEqualTo(200);
            assertThat(version.statusCode()).as(pod.name).isEqualTo(200);
            assertThat(Json.MAPPER.readTree(version.body()).toString()).as(pod.name).contains("0.1.0-SNAPSHOT");
        }
    }

    @Test
    void workersTakeTheirConfigurationFromTheManagerContainer() throws IOException {
        for (PodmanPod worker : workers) {
            JsonNode config = Json.MAPPER.readTree(worker.get("/platform/diagnostics/config?internal=true", AUTH).body())
                    .path("config");
            assertThat(config.path("configSource").asText()).as(worker.name + " " + config).isEqualTo("manager");
            assertThat(config.path("source").asText()).as(worker.name + " " + config).isEqualTo("manager");
            assertThat(config.path("appliedVersion").isIntegralNumber()).as(worker.name + " " + config).isTrue();
        }
    }

    @Test
    void aBroadcastReachesBothWorkers() throws IOException {
        JsonNode body = Json.MAPPER.readTree(workers.get(0).get("/platform/diagnostics/jvm", AUTH).body());

        assertThat(podNames(body)).containsExactly("worker-0", "worker-1");
        assertThat(body.path("summary").path("succeeded").asInt()).as("%s", body).isEqualTo(2);
    }

    @Test
    void theDatagridSpansBothCachePods() throws IOException {
        long until = System.nanoTime() + PATIENCE.toNanos();
        JsonNode body = datagrid();
        while (!memberAddresses(body).equals(List.of(GRID, GRID)) && System.nanoTime() < until) {
            LocalApiServer.sleep(500);
            body = datagrid();
        }

        assertThat(podNames(body)).as("%s", body).containsExactly("cache-0", "cache-1");
        // each Cache pod sees both members, at the pods' own loopback addresses
        assertThat(memberAddresses(body)).as("%s", body).containsExactly(GRID, GRID);
    }

    private static final List<String> GRID = List.of("127.0.21.33:5701", "127.0.21.34:5701");

    /** Per pod of a datagrid broadcast, the sorted addresses of the members it sees. */
    private static List<List<String>> memberAddresses(JsonNode body) {
        List<List<String>> perPod = new ArrayList<>();
        for (JsonNode pod : body.path("pods")) {
            List<String> addresses = new ArrayList<>();
            pod.path("datagrid").path("members").forEach(m -> addresses.add(m.path("address").asText()));
            addresses.sort(null);
            perPod.add(addresses);
        }
        return perPod;
    }

    /** The datagrid section broadcast from cache-0 over both Cache pods. */
    private static JsonNode datagrid() throws IOException {
        return Json.MAPPER.readTree(caches.get(0).get("/platform/diagnostics/datagrid", AUTH).body());
    }

    @Test
    void aHeapDumpIsWrittenToTheDataVolume() throws IOException {
        PodmanPod worker = workers.get(1);
        HttpResponse<InputStream> response = worker.stream("/platform/diagnostics/heapdump", AUTH);
        assertThat(response.statusCode()).isEqualTo(200);
        try (InputStream body = response.body()) {
            byte[] head = body.readNBytes(18);
            assertThat(new String(head, StandardCharsets.US_ASCII)).isEqualTo("JAVA PROFILE 1.0.2");
            // the dump is sent from its file in the data volume while the answer is being read
            try (Stream<Path> files = Files.walk(worker.dataDir)) {
                assertThat(files.map(p -> p.getFileName().toString())).anyMatch(n -> n.startsWith("pylon-heapdump-"));
            }
            long size = head.length + body.transferTo(java.io.OutputStream.nullOutputStream());
            assertThat(size).isGreaterThan(1_000_000);
        }
    }

    @Test
    void theManagerPrintsTheGeneratedAdminPasswordAndIssuesATokenWithIt() throws IOException {
        Matcher printed = Pattern.compile("shown only this once:\\s+(\\S+)").matcher(manager.logs());
        assertThat(printed.find()).as("password in the Manager's output").isTrue();

        HttpResponse<String> token = manager.post("/apiops/auth/token", "grant_type=client_credentials&client_id=admin&client_secret="
                + URLEncoder.encode(printed.group(1), StandardCharsets.UTF_8));

        assertThat(token.statusCode()).as(token.body()).isEqualTo(200);
        assertThat(Json.MAPPER.readTree(token.body()).path("access_token").asText()).isNotEmpty();
    }

    @Test
    void memoryStaysInsideTheLimitAndTheHeapFollowsIt() throws IOException {
        for (PodmanPod pod : all) {
            long rss = pod.rssBytes();
            figure("RSS MB / limit MB, " + pod.name, (rss >> 20) + " / " + (pod.memoryLimitBytes >> 20), s -> s);
            assertThat(rss).as(pod.name).isLessThan(pod.memoryLimitBytes);
        }
        for (PodmanPod pod : List.of(workers.get(1), caches.get(1))) {
            JsonNode jvm = Json.MAPPER.readTree(pod.get("/platform/diagnostics/jvm?pod=" + pod.name, AUTH).body());
            long maxHeap = jvm.path("jvm").path("memory").path("heap").path("max").asLong();
            // -XX:MaxRAMPercentage=70 of the container's limit, not of the machine's memory
            assertThat(maxHeap).as("%s max heap in %s", pod.name, jvm).isBetween(pod.memoryLimitBytes / 2, pod.memoryLimitBytes * 3 / 4);
        }
    }

    @Test
    void everyPodStartsWithoutJvmWarningsThatNeedNoAction() throws IOException {
        // the options `pylon up` gives its pods (the grid's sun.misc.Unsafe access; a grid member's JDK internals)
        for (PodmanPod pod : all) {
            assertThat(pod.commandLine()).as(pod.name).contains("--sun-misc-unsafe-memory-access=allow");
            assertThat(pod.logs()).as(pod.name).doesNotContain("sun.misc.Unsafe").doesNotContain("modular environment")
                    .doesNotContainPattern("(?m)^WARNING: ");
        }
    }

    @Test
    void everyPodStartsFromTheAotCacheOfItsModuleTrainedAtImageBuildTime() throws IOException {
        for (PodmanPod pod : all) {
            assertThat(pod.commandLine()).as(pod.name).contains("-XX:AOTCache=/opt/pylon/aot/" + module(pod) + ".aot")
                    .doesNotContain("-XX:+AutoCreateSharedArchive");
            assertThat(pod.logs()).as(pod.name).doesNotContain("[error").doesNotContain("pylon-entrypoint");
            // the collector the cache was trained with, as `pylon run` gives it (the Manager's G1; Serial otherwise)
            assertThat(pod.commandLine()).as(pod.name)
                    .contains(module(pod).equals("manager") ? "-XX:+UseG1GC" : "-XX:+UseSerialGC");
        }
        PodmanPod worker = workers.get(1);
        ClassSources sources = ClassSources.read(worker.dataDir.resolve("class-load.log"));
        figure("classes loaded to the first health 200 from the AOT cache / in all, " + worker.name,
                sources.fromCache + " / " + sources.total, s -> s);
        // Pylon's own classes come from the image's cache, which the JDK's default archive does not hold; those from
        // jars are the few the JVM leaves out of a cache (picocli's: class files too old for AOT linking), the paths
        // the training does not take (a grid connection, static discovery) and what the other tests' calls loaded
        assertThat(sources.pylonFromCache).as("%s", sources).isGreaterThan(100);
        assertThat(sources.pylonFromJars.size() * 5).as("%s", sources).isLessThan(sources.pylonFromCache);
        assertThat(sources.fromCache).as("%s", sources).isGreaterThan(sources.total / 2);
    }

    /**
     * A Worker of the manifest follows the Manager (its readiness waits for a configuration): a Worker started on its
     * own here is pointed at the Manager container, as the Service name would point it in a cluster.
     */
    private static Map<String, String> followsManager() {
        return with(base, Map.of("PYLON_WORKER_MANAGER_URL", "http://127.0.21.30:8080"));
    }

    @Test
    void aPodWithAnotherMemoryLimitThanTheTrainingStartsFromTheCache() throws IOException {
        // trained as if with a 1 GiB limit; this pod's heap (70% of 384 MiB) and initial heap are smaller
        try (PodmanPod small = new PodmanPod(image, Manifests.deployment(objects, "pylon-worker"), "worker-384mi", "127.0.21.36",
                with(followsManager(), Map.of("JAVA_TOOL_OPTIONS", CLASS_LOAD_LOG)), "384Mi")) {
            small.start();
            figure("start to first health 200 ms, worker with a 384 MiB limit", String.valueOf(small.awaitHealthy(PATIENCE).toMillis()), s -> s);

            assertThat(small.commandLine()).contains("-XX:AOTCache=/opt/pylon/aot/worker.aot");
            ClassSources sources = ClassSources.read(small.dataDir.resolve("class-load.log"));
            assertThat(sources.pylonFromCache).as("%s", sources).isGreaterThan(100);
            assertThat(sources.pylonFromJars.size() * 5).as("%s", sources).isLessThan(sources.pylonFromCache);
            assertThat(small.inspect().path("HostConfig").path("Memory").asLong()).isEqualTo(384L << 20);
        }
    }

    @Test
    void jvmOptionsTheCacheCannotTakeStartThePodFromAClassDataArchiveInstead() throws IOException {
        // a young generation as large as the initial heap leaves no room for the cache's archived objects: started
        // with the cache, this JVM would stop with "Unable to use AOT cache"
        try (PodmanPod pod = new PodmanPod(image, Manifests.deployment(objects, "pylon-worker"), "worker-cds", "127.0.21.37",
                with(followsManager(), Map.of("JAVA_TOOL_OPTIONS", "-Xms16m -Xmn32m")))) {
            pod.start();
            pod.awaitHealthy(PATIENCE);

            assertThat(pod.logs()).contains("pylon-entrypoint: the JVM cannot start from the AOT cache /opt/pylon/aot/worker.aot")
                    .contains("archived heap objects cannot be loaded");
            assertThat(pod.commandLine()).contains("-XX:SharedArchiveFile=/var/lib/pylon/pylon.jsa")
                    .noneMatch(arg -> arg.startsWith("-XX:AOTCache"));
            pod.stop();
            assertThat(pod.dataDir.resolve("pylon.jsa")).as("archive written at exit").isRegularFile();
            pod.start();
            Duration again = pod.awaitHealthy(PATIENCE);
            figure("restart with the CDS archive, start to first health 200 ms, " + pod.name, String.valueOf(again.toMillis()), s -> s);
        }
    }

    @Test
    void theCacheIsTurnedOffWithPylonPodAotCacheFalseAndAnotherValueIsRefused() throws IOException {
        Map<String, String> refused = with(base, Map.of("PYLON_POD_AOT_CACHE", "sometimes"));
        try (PodmanPod pod = new PodmanPod(image, Manifests.deployment(objects, "pylon-worker"), "worker-aot-bad", "127.0.21.38", refused)) {
            pod.start();
            JsonNode state = awaitExit(pod);
            assertThat(state.path("ExitCode").asInt()).as("%s", state).isNotZero();
            assertThat(pod.logs()).contains("Invalid setting pylon.pod.aot-cache (environment variable PYLON_POD_AOT_CACHE): "
                    + "'sometimes' is not true or false.");
        }
        Map<String, String> off = with(followsManager(), Map.of("PYLON_POD_AOT_CACHE", " False "));
        try (PodmanPod pod = new PodmanPod(image, Manifests.deployment(objects, "pylon-worker"), "worker-aot-off", "127.0.21.38", off)) {
            pod.start();
            pod.awaitHealthy(PATIENCE);

            assertThat(pod.commandLine()).contains("-XX:SharedArchiveFile=/var/lib/pylon/pylon.jsa")
                    .noneMatch(arg -> arg.startsWith("-XX:AOTCache"));
            assertThat(pod.logs()).doesNotContain("pylon-entrypoint");
        }
    }

    @Test
    void aRestartedPodStartsAgainFromTheAotCacheAndWritesNoArchive() throws IOException {
        PodmanPod worker = workers.get(0);
        worker.stop();
        try {
            assertThat(worker.dataDir.resolve("pylon.jsa")).as("no class-data-sharing archive beside the AOT cache").doesNotExist();
        } finally {
            worker.start();
        }
        Duration again = worker.awaitHealthy(PATIENCE);

        figure("restart with the AOT cache, start to first health 200 ms, " + worker.name, String.valueOf(again.toMillis()), s -> s);
        assertThat(worker.logs()).contains("listening on " + worker.url());
        assertThat(worker.commandLine()).contains("-XX:AOTCache=/opt/pylon/aot/worker.aot");
    }

    private static String module(PodmanPod pod) {
        return pod.name.substring(0, pod.name.indexOf('-'));
    }

    /** Waits until the container has stopped and returns its state. */
    private static JsonNode awaitExit(PodmanPod pod) {
        long until = System.nanoTime() + PATIENCE.toNanos();
        JsonNode state = pod.inspect().path("State");
        while (state.path("Running").asBoolean() && System.nanoTime() < until) {
            LocalApiServer.sleep(200);
            state = pod.inspect().path("State");
        }
        assertThat(state.path("Running").asBoolean()).as("%s still running:%n%s", pod.name, pod.logs()).isFalse();
        return state;
    }

    /**
     * Where the classes of a JVM came from, read from its {@code -Xlog:class+load} file: "source: shared objects file"
     * is the AOT cache (or the JDK's default archive, which holds JDK classes only); "(top)" would be a dynamic
     * class-data-sharing archive; "file:" a jar, whose classes were loaded and verified at start.
     */
    record ClassSources(int total, int fromCache, int pylonFromCache, List<String> pylonFromJars) {
        private static final Pattern LINE = Pattern.compile("\\[class,load\\] (\\S+) source: (.*)$");

        static ClassSources read(Path log) throws IOException {
            int total = 0;
            int fromCache = 0;
            int pylonFromCache = 0;
            List<String> pylonFromJars = new ArrayList<>();
            for (String line : Files.readAllLines(log)) {
                Matcher m = LINE.matcher(line);
                if (!m.find()) {
                    continue;
                }
                total++;
                boolean cached = m.group(2).equals("shared objects file");
                boolean pylon = m.group(1).startsWith("io.pylon.");
                fromCache += cached ? 1 : 0;
                pylonFromCache += cached && pylon ? 1 : 0;
                if (pylon && m.group(2).startsWith("file:")) {
                    pylonFromJars.add(m.group(1));
                }
            }
            return new ClassSources(total, fromCache, pylonFromCache, pylonFromJars);
        }
    }

    private static List<String> podNames(JsonNode body) {
        List<String> names = new ArrayList<>();
        body.path("pods").forEach(p -> names.add(p.path("podName").asText()));
        return names;
    }

    /** Listening TCP sockets of one process, as address:port, read from /proc (the container shares the host's). */
    static final class ListeningSockets {
        private ListeningSockets() {
        }

        static Set<String> of(long pid) throws IOException {
            Set<String> inodes = new HashSet<>();
            try (Stream<Path> fds = Files.list(Path.of("/proc", String.valueOf(pid), "fd"))) {
                fds.forEach(fd -> {
                    try {
                        String target = Files.readSymbolicLink(fd).toString();
                        if (target.startsWith("socket:[")) {
                            inodes.add(target.substring(8, target.length() - 1));
                        }
                    } catch (IOException e) {
                        // closed meanwhile
                    }
                });
            }
            Set<String> listening = new HashSet<>();
            for (String table : List.of("tcp", "tcp6")) {
                List<String> lines = Files.readAllLines(Path.of("/proc", String.valueOf(pid), "net", table));
                for (String line : lines.subList(1, lines.size())) {
                    String[] f = line.trim().split("\\s+");
                    if (f[3].equals("0A") && inodes.contains(f[9])) {
                        listening.add(address(f[1]));
                    }
                }
            }
            return listening;
        }

        /** /proc/net/tcp's hex address:port; IPv6 entries other than v4-mapped are kept as hex. */
        private static String address(String hex) {
            String[] parts = hex.split(":");
            String ip = parts[0];
            int port = Integer.parseInt(parts[1], 16);
            if (ip.length() == 32 && ip.startsWith("0000000000000000FFFF0000")) {
                ip = ip.substring(24);
            }
            if (ip.length() != 8) {
                return ip + ":" + port;
            }
            StringBuilder dotted = new StringBuilder();
            for (int i = 3; i >= 0; i--) {
                dotted.append(Integer.parseInt(ip.substring(i * 2, i * 2 + 2), 16)).append(i > 0 ? "." : "");
            }
            return dotted + ":" + port;
        }
    }
}
