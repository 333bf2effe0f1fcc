package io.pylon.distribution;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The start-up cache options of a pod that `pylon up` starts; scripts/pod-jvm.sh (pylon_pod_startup_opts) does the
 * same for `pylon run` (PodJvmOptionsTest). On JDK 25 and later an AOT cache ({@code <dir>/<name>-<key>.aot}: classes
 * loaded and linked, method profiles): the first start records it and the JVM writes it at exit, later starts map
 * it. The key hashes every jar's name, size and modification second, so a cache trained on other jars is never used
 * (the JVM would refuse it and run without), as do the JVM options; caches of earlier libraries are deleted. Before
 * JDK 25 the class-data-sharing archive {@code <dir>/<name>.jsa} ({@link ClassDataArchive}). Only the JVM's errors
 * about the cache are shown.
 */
final class StartupCache {
    /** The first JDK whose {@code -XX:AOTCacheOutput} records and writes a cache in one run (JEP 514). */
    static final int AOT_CACHE_JDK = 25;

    private StartupCache() {
    }

    static String options(Path dir, String name, Path lib, int javaMajor, String jvmOptions) throws IOException {
        return options(dir, name, lib, javaMajor, jvmOptions, true);
    }

    /**
     * {@code recorder}: whether this pod records the cache when there is none yet; another pod of the same cache
     * starts without one meanwhile (two JVMs would write the same file). Before JDK 25 every pod has its own archive.
     */
    static String options(Path dir, String name, Path lib, int javaMajor, String jvmOptions, boolean recorder)
            throws IOException {
        if (javaMajor < AOT_CACHE_JDK) {
            Path archive = dir.resolve(name + ".jsa");
            ClassDataArchive.dropIfStale(archive, lib.resolve("*").toString());
            // -Xlog:cds*=off: the archive's notes on classes it skips are no news to an operator
            return "-XX:+AutoCreateSharedArchive -XX:SharedArchiveFile=" + archive + " -Xlog:cds*=off";
        }
        Path cache = dir.resolve(name + "-" + key(lib, jvmOptions) + ".aot");
        // a cache of other jars or options, and the recording a JVM left when it was killed while writing its cache
        // (JDK 25 names it <cache>.config, hundreds of MB): the JVM neither uses nor removes them
        try (DirectoryStream<Path> old = Files.newDirectoryStream(dir, name + "-*.aot*")) {
            for (Path stale : old) {
                if (!stale.equals(cache) && !stale.getFileName().toString().equals(cache.getFileName() + ".ok")
                        && stale.getFileName().toString().matches(".*\\.aot(\\.config|\\.ok)?")) {
                    Files.deleteIfExists(stale);
                }
            }
        }
        boolean trained = Files.isRegularFile(cache) && Files.size(cache) > 0;
        if (!trained && !recorder) {
            return "";
        }
        return (trained ? "-XX:AOTCache=" : "-XX:AOTCacheOutput=") + cache + " -Xlog:aot*=error -Xlog:cds*=error";
    }

    /**
     * Deletes the AOT cache of {@code name} for these jars and options when the JVM cannot start from it, so that this
     * start records a new one. A cache written by a JVM stopped while it was still starting made the next JVMs crash
     * while loading it (JDK 25.0.3: SIGSEGV in AOTLinkedClassBulkLoader); a {@code java -version} from the cache
     * that must use it ({@code -XX:AOTMode=on}) takes under a second and is run once per cache (a {@code .ok} file
     * beside it remembers the result).
     */
    static void dropIfUnusable(Path dir, String name, Path lib, int javaMajor, String jvmOptions, String javaCommand)
            throws IOException {
        if (javaMajor < AOT_CACHE_JDK) {
            return;
        }
        Path cache = dir.resolve(name + "-" + key(lib, jvmOptions) + ".aot");
        Path verified = cache.resolveSibling(cache.getFileName() + ".ok");
        if (!Files.isRegularFile(cache) || Files.size(cache) == 0 || Files.exists(verified)) {
            return;
        }
        List<String> command = new ArrayList<>(List.of(javaCommand));
        command.addAll(java.util.Arrays.stream(jvmOptions.split("\\s+")).filter(o -> !o.isBlank()).toList());
        command.addAll(List.of("-XX:AOTCache=" + cache, "-XX:AOTMode=on", "-Xlog:disable", "-Xlog:all=off",
                "-XX:ErrorFile=/dev/null", "-XX:-CreateCoredumpOnCrash", "-cp", lib.resolve("*").toString(), "-version"));
        boolean usable;
        try {
            Process trial = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            usable = trial.waitFor(60, TimeUnit.SECONDS) && trial.exitValue() == 0;
            if (trial.isAlive()) {
                trial.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        if (usable) {
            Files.writeString(verified, "");
        } else {
            Files.deleteIfExists(cache);
        }
    }

    /**
     * 16 hex digits of the SHA-256 of the sorted lines {@code <jar name> <size> <modified, epoch seconds>} and a last
     * line {@code jvm <options>}: a cache trained with another heap may not load (or stop the JVM, see PodHeap).
     */
    static String key(Path lib, String jvmOptions) throws IOException {
        List<String> lines = new ArrayList<>();
        try (DirectoryStream<Path> jars = Files.newDirectoryStream(lib, "*.jar")) {
            for (Path jar : jars) {
                lines.add(jar.getFileName() + " " + Files.size(jar) + " "
                        + Files.getLastModifiedTime(jar).to(TimeUnit.SECONDS) + "\n");
            }
        }
        lines.sort(null);
        lines.add("jvm " + jvmOptions + "\n");
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            lines.forEach(line -> sha.update(line.getBytes(StandardCharsets.UTF_8)));
            return HexFormat.of().formatHex(sha.digest()).substring(0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
