package io.pylon.distribution;

import io.pylon.core.config.InvalidSettingException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * `pylon up` (PodProcess, PodHeap, StartupCache) and `pylon run` and the benchmarks (scripts/pod-jvm.sh) start pods
 * with the same JVM options: the script's functions run in a real bash and their output is compared.
 */
class PodJvmOptionsTest {
    private static final String JVM = PodProcess.jvmOptions("worker", Map.of());
    private static final Path SCRIPT = Path.of("..", "scripts", "pod-jvm.sh").toAbsolutePath();

    @TempDir
    Path dir;

    @Test
    void scriptsAndPodProcessAgree() throws Exception {
        String script = Files.readString(SCRIPT);
        assertThat(script).as("scripts/pod-jvm.sh; keep it in step with PodProcess.BASE_JAVA_OPTS")
                .contains("PYLON_POD_BASE_JVM_OPTS=\"" + PodProcess.BASE_JAVA_OPTS + "\"");
        for (String module : List.of("manager", "worker", "cache", "integration", "portal")) {
            Result options = bash(Map.of("PYLON_POD_HEAP_MAX", "96m"), "pylon_pod_jvm_opts " + module);
            assertThat(options.exit).isZero();
            assertThat(options.out).as(module).isEqualTo(PodProcess.jvmOptions(module, Map.of("PYLON_POD_HEAP_MAX", "96m")));
        }
        // what the Worker benchmarks start as a pod
        assertThat(bash(Map.of(), "echo $PYLON_POD_JVM_OPTS").out).isEqualTo("-XX:+UseSerialGC " + PodProcess.BASE_JAVA_OPTS);
    }

    @Test
    void theManagerRunsG1WithAPauseGoalAndNoFixedYoungGenerationAndTheOthersTheSerialCollector() {
        assertThat(PodProcess.jvmOptions("manager", Map.of()))
                .startsWith("-XX:+UseG1GC -XX:MaxGCPauseMillis=5 ").endsWith(" -Xms64m -Xmx192m")
                .doesNotContain("Serial", "-Xmn");
        for (String module : List.of("worker", "cache", "integration", "portal")) {
            assertThat(PodProcess.jvmOptions(module, Map.of())).as(module)
                    .startsWith("-XX:+UseSerialGC ").contains(" -Xmn").doesNotContain("G1");
        }
    }

    @Test
    void everyModuleGetsTheSameBoundedHeapFromTheScriptAndFromPylonUp() throws Exception {
        for (String module : List.of("manager", "worker", "cache", "integration", "portal")) {
            Result script = bash(Map.of(), "pylon_pod_heap_opts " + module);
            assertThat(script.exit).isZero();
            assertThat(script.out).isEqualTo(PodHeap.options(module, Map.of()));
            assertThat(" " + script.out + " ").contains(" -Xmx" + PodHeap.defaultMib(module) + "m ");
        }
    }

    @Test
    void configuredHeapIsReadTheSameWayAndBadValuesAreRefusedWithTheSameMessage() throws Exception {
        for (String value : List.of("96m", "1G", "2g", " 200m ", "33554432", "100000k", "096m", "1099511627776")) {
            Result script = bash(Map.of("PYLON_POD_HEAP_MAX", value), "pylon_pod_heap_opts worker");
            assertThat(script.exit).as(value).isZero();
            assertThat(script.out).as(value).isEqualTo(PodHeap.options("worker", Map.of("PYLON_POD_HEAP_MAX", value)));
        }
        assertThat(PodHeap.options("worker", Map.of("PYLON_POD_HEAP_MAX", "1g"))).isEqualTo("-Xms272m -Xmx1024m -Xmn256m");
        for (String value : List.of("31m", "0m", "512", "abc", "12x", "m", "1m2", "9 6m", "-64m", "2048g",
                "99999999999999", "64m; rm -rf /")) {
            Result script = bash(Map.of("PYLON_POD_HEAP_MAX", value), "pylon_pod_heap_opts worker");
            assertThat(script.exit).as(value).isEqualTo(1);
            assertThat(script.out).as(value).isEmpty();
            assertThatThrownBy(() -> PodHeap.options("worker", Map.of("PYLON_POD_HEAP_MAX", value)))
                    .as(value).isInstanceOf(InvalidSettingException.class)
                    .satisfies(e -> assertThat(script.err).isEqualTo("pylon: " + e.getMessage()));
        }
    }

    @Test
    void startUpCacheIsKeyedByTheJarsAlikeInTheScriptAndInJava() throws Exception {
        Path lib = Files.createDirectories(dir.resolve("lib"));
        jar(lib.resolve("a.jar"), 10, 1_000);
        jar(lib.resolve("b-1.0.jar"), 20, 2_000);
        Files.writeString(lib.resolve("notes.txt"), "not a jar");
        String key = StartupCache.key(lib, JVM);
        assertThat(bash(Map.of(), "pylon_startup_key " + lib + " '" + JVM + "'").out).isEqualTo(key).hasSize(16);
        assertThat(StartupCache.key(lib, JVM + " -Xmx1g")).as("other JVM options").isNotEqualTo(key);

        jar(lib.resolve("a.jar"), 10, 1_001);
        assertThat(StartupCache.key(lib, JVM)).as("modified").isNotEqualTo(key);
        String modified = StartupCache.key(lib, JVM);
        jar(lib.resolve("a.jar"), 11, 1_001);
        assertThat(StartupCache.key(lib, JVM)).as("size").isNotEqualTo(modified);
        String resized = StartupCache.key(lib, JVM);
        Files.move(lib.resolve("a.jar"), lib.resolve("c.jar"));
        assertThat(StartupCache.key(lib, JVM)).as("name").isNotEqualTo(resized);
        assertThat(bash(Map.of(), "pylon_startup_key " + lib + " '" + JVM + "'").out).isEqualTo(StartupCache.key(lib, JVM));
    }

    @Test
    void startUpCacheOptionsAgreeOnEveryJdkAndStaleCachesAreDeleted() throws Exception {
        Path lib = Files.createDirectories(dir.resolve("lib"));
        jar(lib.resolve("a.jar"), 10, 1_000);
        Path caches = Files.createDirectories(dir.resolve("cds"));
        Path stale = Files.writeString(caches.resolve("worker-0123456789abcdef.aot"), "an earlier library's");
        Path other = Files.writeString(caches.resolve("cache-0123456789abcdef.aot"), "another module's");
        Path cache = caches.resolve("worker-" + StartupCache.key(lib, JVM) + ".aot");

        String java = StartupCache.options(caches, "worker", lib, 25, JVM);
        assertThat(java).isEqualTo("-XX:AOTCacheOutput=" + cache + " -Xlog:aot*=error -Xlog:cds*=error");
        assertThat(stale).doesNotExist();
        assertThat(other).exists();
        assertThat(script(caches, lib, 25)).isEqualTo(java);

        Files.writeString(cache, "trained");
        assertThat(StartupCache.options(caches, "worker", lib, 26, JVM))
                .isEqualTo("-XX:AOTCache=" + cache + " -Xlog:aot*=error -Xlog:cds*=error")
                .isEqualTo(script(caches, lib, 26));

        // JDK 21: no AOT option at all (the JVM would refuse to start), the class-data-sharing archive instead
        String jdk21 = StartupCache.options(caches, "worker", lib, 21, JVM);
        assertThat(jdk21).isEqualTo("-XX:+AutoCreateSharedArchive -XX:SharedArchiveFile=" + caches.resolve("worker.jsa")
                + " -Xlog:cds*=off").doesNotContain("AOT").isEqualTo(script(caches, lib, 21));
    }

    @Test
    void aCacheTheJvmCannotStartFromIsDroppedAndALeftRecordingToo() throws Exception {
        Path lib = Files.createDirectories(dir.resolve("lib"));
        jar(lib.resolve("a.jar"), 10, 1_000);
        Path caches = Files.createDirectories(dir.resolve("cds"));
        Path cache = caches.resolve("worker-" + StartupCache.key(lib, JVM) + ".aot");
        String java = ProcessHandle.current().info().command().orElse("java");
        int major = Runtime.version().feature();
        org.junit.jupiter.api.Assumptions.assumeTrue(major >= StartupCache.AOT_CACHE_JDK, "AOT caches need JDK 25");

        // what a JVM killed while writing its cache leaves: neither used nor removed by the JVM
        Path leftover = Files.writeString(caches.resolve(cache.getFileName() + ".config"), "half a recording");
        Files.writeString(cache, "not a cache the JVM can map");
        StartupCache.dropIfUnusable(caches, "worker", lib, major, JVM, java);
        assertThat(cache).doesNotExist();
        assertThat(StartupCache.options(caches, "worker", lib, major, JVM, true)).startsWith("-XX:AOTCacheOutput=" + cache);
        assertThat(leftover).doesNotExist();

        // the recording JVM creates its file as it starts: a second pod of the module starting then leaves it alone
        Path recording = Files.writeString(caches.resolve(cache.getFileName() + ".config"), "");
        assertThat(StartupCache.options(caches, "worker", lib, major, JVM, false)).as("a second pod of the module").isEmpty();
        assertThat(recording).as("the first pod's recording").exists();

        Files.writeString(cache, "not a cache the JVM can map");
        Result script = bash(Map.of(), "pylon_pod_check_cache " + caches + " worker " + lib + " " + major + " '" + JVM + "' " + java);
        assertThat(script.exit).isZero();
        assertThat(cache).doesNotExist();
    }

    @Test
    void everyPodGetsTheQuietOptionsFromTheScriptAndFromPylonUp() throws Exception {
        for (String module : List.of("manager", "worker", "cache", "integration", "portal")) {
            for (int major : List.of(21, 25)) {
                assertThat(bash(Map.of(), "pylon_pod_quiet_opts " + module + " " + major).out).as(module + " " + major)
                        .isEqualTo(QuietJvm.options(module, major));
            }
        }
        assertThat(QuietJvm.options("cache", 25)).contains("--sun-misc-unsafe-memory-access=allow", "--add-opens java.base/java.lang=ALL-UNNAMED");
        assertThat(QuietJvm.options("worker", 21)).isEmpty();
    }

    @Test
    void cliRecordsItsAotCacheOnlyWithACommandThatReachesAManagerAndKeepsItsArchiveBeforeJdk25() throws Exception {
        Path lib = Files.createDirectories(dir.resolve("lib"));
        jar(lib.resolve("a.jar"), 10, 1_000);
        Path caches = Files.createDirectories(dir.resolve("cds"));
        String key = bash(Map.of(), "pylon_startup_key " + lib + " \"$PYLON_CLI_JVM_OPTS\"").out;
        Path cache = caches.resolve("cli-" + key + ".aot");
        String cli = "pylon_cli_startup_opts " + caches + " " + lib + " ";

        assertThat(bash(Map.of(), cli + "25 pods").out)
                .isEqualTo("-XX:AOTCacheOutput=" + cache + " -Xlog:aot*=error -Xlog:cds*=error");
        for (String command : List.of("config", "--help", "podz", "completion", "")) {
            assertThat(bash(Map.of(), cli + "25 '" + command + "'").out).as(command).isEmpty();
        }
        Files.writeString(cache, "trained");
        for (String command : List.of("pods", "config")) {
            assertThat(bash(Map.of(), cli + "25 " + command).out).as(command)
                    .isEqualTo("-XX:AOTCache=" + cache + " -Xlog:aot*=error -Xlog:cds*=error");
        }
        assertThat(bash(Map.of(), cli + "21 config").out).isEqualTo("-XX:+AutoCreateSharedArchive -XX:SharedArchiveFile="
                + caches.resolve("cli.jsa") + " -Xlog:cds*=off");
    }

    private String script(Path caches, Path lib, int major) throws Exception {
        Result result = bash(Map.of(), "pylon_pod_startup_opts " + caches + " worker " + lib + " " + major + " '" + JVM + "'");
        assertThat(result.exit).isZero();
        return result.out;
    }

    private static void jar(Path file, int size, long secondsAfterEpoch) throws IOException {
        Files.write(file, new byte[size]);
        Files.setLastModifiedTime(file, FileTime.from(Instant.ofEpochSecond(1_700_000_000L + secondsAfterEpoch)));
    }

    private record Result(int exit, String out, String err) {
    }

    /** Sources scripts/pod-jvm.sh in a real bash with only {@code env} (and PATH) set, runs {@code call}. */
    private Result bash(Map<String, String> env, String call) throws Exception {
        ProcessBuilder builder = new ProcessBuilder("bash", "-c", ". \"$0\" && " + call, SCRIPT.toString());
        builder.environment().keySet().removeIf(k -> k.startsWith("PYLON_"));
        builder.environment().putAll(env);
        Path out = dir.resolve("out.txt");
        Path err = dir.resolve("err.txt");
        Process process = builder.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        assertThat(process.waitFor(20, TimeUnit.SECONDS)).isTrue();
        return new Result(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8).strip(),
                Files.readString(err, StandardCharsets.UTF_8).strip());
    }
}
