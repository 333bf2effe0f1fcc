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
        if (javaMajor < AOT_CACHE_JDK) {
            Path archive = dir.resolve(name + ".jsa");
            ClassDataArchive.dropIfStale(archive, lib.resolve("*").toString());
            // -Xlog:cds*=off: the archive's notes on classes it skips are no news to an operator
            return "-XX:+AutoCreateSharedArchive -XX:SharedArchiveFile=" + archive + " -Xlog:cds*=off";
        }
        Path cache = dir.resolve(name + "-" + key(lib, jvmOptions) + ".aot");
        try (DirectoryStream<Path> old = Files.newDirectoryStream(dir, name + "-*.aot")) {
            for (Path stale : old) {
                if (!stale.equals(cache)) {
                    Files.deleteIfExists(stale);
                }
            }
        }
        boolean trained = Files.isRegularFile(cache) && Files.size(cache) > 0;
        return (trained ? "-XX:AOTCache=" : "-XX:AOTCacheOutput=") + cache + " -Xlog:aot*=error -Xlog:cds*=error";
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
