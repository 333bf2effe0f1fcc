package io.pylon.distribution;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * The state folder of {@code pylon up} and the files in it that hold secrets (the admin password, the environment ID,
 * cluster.json): the folder 0700, each file written as a 0600 temporary file and moved into place, so that no other
 * account can read one at any moment and a crash never leaves half a file. On a file system without POSIX
 * permissions they keep its defaults.
 */
final class OwnerOnlyFiles {
    private static final boolean POSIX = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");

    private OwnerOnlyFiles() {
    }

    /** Creates {@code dir} owner-only, or makes an existing one owner-only. */
    static void folder(Path dir) throws IOException {
        if (!POSIX) {
            Files.createDirectories(dir);
            return;
        }
        if (!Files.isDirectory(dir)) {
            Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        }
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
    }

    static void write(Path file, byte[] content) throws IOException {
        FileAttribute<?>[] ownerOnly = POSIX
                ? new FileAttribute<?>[]{PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"))}
                : new FileAttribute<?>[0];
        Path tmp = Files.createTempFile(file.toAbsolutePath().getParent(), "." + file.getFileName(), ".tmp", ownerOnly);
        try {
            Files.write(tmp, content);
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }
}
