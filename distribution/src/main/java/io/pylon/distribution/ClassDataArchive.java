package io.pylon.distribution;

import java.io.File;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;

/**
 * A pod's class-data-sharing archive ({@code -XX:+AutoCreateSharedArchive}). The JVM writes one at the first exit
 * and reuses it, but when a jar on the class path has changed since, it refuses the archive and, on JDK 25, does not
 * write a new one either: every later start runs without it, about 0.4 s slower. So an archive older than any jar of
 * the class path is deleted before the pod starts, and that start writes a fresh one.
 */
final class ClassDataArchive {
    private ClassDataArchive() {
    }

    /** Deletes {@code archive} if a jar of {@code classPath} (entries, or {@code dir/*}) is newer than it. */
    static void dropIfStale(Path archive, String classPath) throws IOException {
        if (!Files.isRegularFile(archive)) {
            return;
        }
        FileTime written = Files.getLastModifiedTime(archive);
        for (String entry : classPath.split(File.pathSeparator)) {
            if (entry.endsWith("*")) {
                Path dir = Path.of(entry.substring(0, entry.length() - 1));
                if (!Files.isDirectory(dir)) {
                    continue;
                }
                try (DirectoryStream<Path> jars = Files.newDirectoryStream(dir, "*.jar")) {
                    for (Path jar : jars) {
                        if (newer(jar, written)) {
                            Files.deleteIfExists(archive);
                            return;
                        }
                    }
                }
            } else if (!entry.isEmpty() && newer(Path.of(entry), written)) {
                Files.deleteIfExists(archive);
                return;
            }
        }
    }

    private static boolean newer(Path file, FileTime than) throws IOException {
        return Files.isRegularFile(file) && Files.getLastModifiedTime(file).compareTo(than) > 0;
    }
}
