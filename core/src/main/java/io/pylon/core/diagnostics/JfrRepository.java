package io.pylon.core.diagnostics;

import io.pylon.core.storage.PrivateFiles;

import javax.management.ObjectName;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.lang.management.ManagementFactory;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * The JFR repository (where a running recording's chunks are written) in the data directory, inside its budget and
 * in a 0700 folder, rather than the JVM's default under {@code java.io.tmpdir} (a small emptyDir in Kubernetes,
 * readable by others elsewhere). Set with the {@code JFR.configure repositorypath=} diagnostic command, which takes
 * effect for recordings started afterwards; the repository is one per JVM, so the last pod started in a JVM wins
 * (one pod per JVM in production). Folders left by earlier processes (a killed JVM does not remove its own) are
 * removed first.
 *
 * <p>Threading: called once per pod start; the diagnostic command is thread-safe.
 */
final class JfrRepository {
    static final String FOLDER = "repository";
    private static final System.Logger LOG = System.getLogger(JfrRepository.class.getName());

    private JfrRepository() {
    }

    static void moveInto(Path folder) {
        Path dir = PrivateFiles.folder(folder);
        String own = "_" + ProcessHandle.current().pid();
        try (DirectoryStream<Path> children = Files.newDirectoryStream(dir)) {
            for (Path child : children) {
                if (!child.getFileName().toString().endsWith(own)) {
                    deleteTree(child);
                }
            }
        } catch (IOException e) {
            LOG.log(Level.WARNING, "Cannot clean the JFR repository folder: " + e.getClass().getSimpleName());
        }
        try {
            ManagementFactory.getPlatformMBeanServer().invoke(
                    new ObjectName("com.sun.management:type=DiagnosticCommand"), "jfrConfigure",
                    new Object[]{new String[]{"repositorypath=" + dir}}, new String[]{String[].class.getName()});
        } catch (Exception | LinkageError e) {
            LOG.log(Level.WARNING, "Cannot move the JFR repository into " + dir + " (" + e.getClass().getSimpleName()
                    + "); recordings keep their chunks in the JVM's temporary folder");
        }
    }

    private static void deleteTree(Path root) throws IOException {
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }
}
