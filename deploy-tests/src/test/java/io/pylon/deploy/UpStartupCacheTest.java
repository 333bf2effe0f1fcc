package io.pylon.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import io.pylon.core.http.Json;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

/**
 * The first minutes of `./pylon up` from the packaged distribution (its lib folder, as the launcher runs it), twice:
 * the first start records each module's AOT cache and Ctrl-C writes it (one {@code .aot} per module, no recording left
 * behind; a module the first stop missed must be written by one more start and stop, and is printed as a figure),
 * the second start maps those caches and is as quiet as the first. On its own loopback block 127.0.45.x, so
 * that a `./pylon up` on 127.0.0.1-7 beside it is left alone. JDK 25 and later (the AOT cache of JEP 514).
 */
class UpStartupCacheTest {
    private static final String FIRST_ADDRESS = "127.0.45.1";
    private static final List<String> MODULES = List.of("manager", "worker", "cache", "integration", "portal");

    private final List<Process> started = new ArrayList<>();

    @AfterEach
    void cleanUp() {
        for (Process up : started) {
            up.descendants().forEach(ProcessHandle::destroyForcibly);
            up.destroyForcibly();
        }
    }

    @Test
    void ctrlCWritesEachModulesAotCacheAndTheNextUpStartsFromIt(@TempDir Path state) throws Exception {
        assumeThat(Runtime.version().feature()).as("the AOT cache needs JDK 25").isGreaterThanOrEqualTo(25);
        Path lib = DeployTools.ROOT.resolve("distribution/target/pylon/lib");
        assertThat(lib).as("the packaged distribution").isDirectory();

        StringBuffer first = new StringBuffer();
        Process up = up(lib, state, first);
        awaitUp(up, first);
        assertThat(first.toString()).as("the first start").doesNotContain("AOTCache").doesNotContain("-XX:")
                .doesNotContainPattern("(?m)^\\S+ +\\| WARNING: ");
        stop(up, first);
        assertThat(first.toString()).contains("writing the start-up cache of").contains("stopped");

        Path caches = state.resolve("cds");
        List<String> missed = missing(caches);
        if (!missed.isEmpty()) {
            // Seen once in three runs: the cache module's JVM stopped without writing its cache (cause not found yet;
            // harmless to users: the next start records again). Said as a figure, then one more start and stop must
            // write what is missing.
            System.out.println("figure: modules whose cache the first stop did not write: " + missed
                    + "; the first up printed:\n" + first);
            StringBuffer retry = new StringBuffer();
            Process more = up(lib, state, retry);
            awaitUp(more, retry);
            stop(more, retry);
            assertThat(missing(caches)).as("caches still missing after a second stop; it printed:%n%s", retry)
                    .isEmpty();
        }
        List<String> files;
        try (Stream<Path> list = Files.list(caches)) {
            files = list.map(p -> p.getFileName().toString()).sorted().toList();
        }
        assertThat(files).as("no recording left behind").noneMatch(f -> f.endsWith(".aot.config"));

        StringBuffer second = new StringBuffer();
        Process again = up(lib, state, second);
        awaitUp(again, second);
        JsonNode cluster = Json.MAPPER.readTree(state.resolve("cluster.json").toFile());
        for (String module : MODULES) {
            for (JsonNode pod : cluster.path("modules").path(module).path("pods")) {
                String commandLine = ProcessHandle.of(pod.path("pid").asLong()).flatMap(p -> p.info().arguments())
                        .map(args -> String.join(" ", args)).orElse("");
                assertThat(commandLine).as("%s maps its module's cache", pod.path("name").asText())
                        .containsPattern("-XX:AOTCache=\\S*/cds/" + module + "-[0-9a-f]+\\.aot")
                        .doesNotContain("AOTCacheOutput");
            }
        }
        assertThat(second.toString()).as("the second start").doesNotContain("writing the start-up cache")
                .doesNotContain("SLF4J").doesNotContain("\tat ").doesNotContainPattern("(?m)^\\S+ +\\| WARNING: ")
                .doesNotContain("modular environment");
        stop(again, second);
        assertThat(second.toString()).doesNotContain("writing the start-up cache").contains("stopped");
    }

    private Process up(Path lib, Path state, StringBuffer output) throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        ProcessBuilder builder = new ProcessBuilder(java, "-cp", lib + "/*", "io.pylon.distribution.PylonCli", "up",
                "--state-dir", state.toString(), "--start-timeout", "240", "--first-address", FIRST_ADDRESS)
                .redirectErrorStream(true);
        builder.environment().remove("PYLON_POD_JAVA_OPTS");
        Process up = builder.start();
        started.add(up);
        Thread.ofVirtual().start(() -> {
            try (BufferedReader reader = new BufferedReader(new InputStreamReader(up.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = reader.readLine()) != null; ) {
                    output.append(line).append('\n');
                }
            } catch (Exception ignored) {
                // the process ended
            }
        });
        return up;
    }

    private static void awaitUp(Process up, StringBuffer output) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(300);
        while (!output.toString().contains("Pylon is up") && up.isAlive() && System.nanoTime() < deadline) {
            Thread.sleep(250);
        }
        assertThat(output.toString()).as("pylon up's output").contains("Pylon is up");
    }

    private static List<String> missing(Path caches) throws java.io.IOException {
        List<String> files;
        try (Stream<Path> list = Files.list(caches)) {
            files = list.map(p -> p.getFileName().toString()).toList();
        }
        return MODULES.stream().filter(module -> files.stream()
                .noneMatch(f -> f.startsWith(module + "-") && f.endsWith(".aot"))).toList();
    }

    private static void stop(Process up, StringBuffer output) throws Exception {
        new ProcessBuilder("kill", "-INT", String.valueOf(up.pid())).start().waitFor();
        assertThat(up.waitFor(240, TimeUnit.SECONDS)).as("pylon up exits on SIGINT; output:\n%s", output).isTrue();
    }
}
