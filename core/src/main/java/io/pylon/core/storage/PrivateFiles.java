package io.pylon.core.storage;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * Files that hold diagnostics data or secrets are readable by the pod's user alone: files 0600, folders 0700. On a
 * file system without POSIX permissions (not Linux) nothing is changed.
 */
public final class PrivateFiles {
    private static final System.Logger LOG = System.getLogger(PrivateFiles.class.getName());
    private static final boolean POSIX = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
    public static final Set<PosixFilePermission> FILE = PosixFilePermissions.fromString("rw-------");
    public static final Set<PosixFilePermission> FOLDER = PosixFilePermissions.fromString("rwx------");

    private PrivateFiles() {
    }

    /** Creates the folder (and missing parents) or takes an existing one, and makes it 0700. */
    public static Path folder(Path dir) {
        try {
            Path absolute = dir.toAbsolutePath();
            if (!Files.isDirectory(absolute)) {
                Files.createDirectories(absolute);
            }
            restrict(absolute, FOLDER);
            return absolute;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot create the folder " + dir, e);
        }
    }

    /** Makes an existing file 0600 (a file another library created with the process's umask). */
    public static void restrictFile(Path file) {
        restrict(file, FILE);
    }

    /** The attribute that creates a file 0600 from the start ({@code Files.newByteChannel}, {@code createFile}). */
    public static FileAttribute<?>[] fileAttributes() {
        return POSIX ? new FileAttribute<?>[]{PosixFilePermissions.asFileAttribute(FILE)} : new FileAttribute<?>[0];
    }

    private static void restrict(Path path, Set<PosixFilePermission> permissions) {
        if (!POSIX) {
            return;
        }
        try {
            Files.setPosixFilePermissions(path, permissions);
        } catch (IOException | UnsupportedOperationException e) {
            // a mount point owned by another user (an emptyDir's root): what is inside is still restricted
            LOG.log(Level.WARNING, "Cannot restrict the permissions of " + path + ": " + e.getClass().getSimpleName());
        }
    }
}
