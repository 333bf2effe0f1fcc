package io.pylon.worker.config;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;

/**
 * The last bundle a Worker applied, kept in its data folder ({@code gateway/bundle.json}, mode 0600) so that a restart
 * during a Manager outage serves what it served before. Written to a temporary file, forced to disk, then renamed
 * over the old copy (and the folder forced): a crash at any point leaves the old copy or the new one, never a
 * torn file. Not thread-safe: one writer (the poller) at a time.
 */
public final class LastKnownGood {
    private final Path folder;
    private final Path file;

    public LastKnownGood(Path dataDir) {
        this.folder = dataDir.resolve("gateway");
        this.file = folder.resolve("bundle.json");
    }

    public Path file() {
        return file;
    }

    /** The stored copy; empty when there is none. Left-over temporary files of an interrupted write are removed. */
    public Optional<byte[]> read() throws IOException {
        if (Files.isDirectory(folder)) {
            try (var stale = Files.newDirectoryStream(folder, "bundle.json.*.tmp")) {
                for (Path tmp : stale) {
                    Files.deleteIfExists(tmp);
                }
            }
        }
        try {
            return Optional.of(Files.readAllBytes(file));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
    }

    public void write(byte[] bundle) throws IOException {
        Files.createDirectories(folder);
        Path tmp = Files.createTempFile(folder, "bundle.json.", ".tmp",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        try {
            try (FileChannel channel = FileChannel.open(tmp, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
                ByteBuffer buffer = ByteBuffer.wrap(bundle);
                while (buffer.hasRemaining()) {
                    channel.write(buffer);
                }
                channel.force(true);
            }
            try {
                Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
            try (FileChannel dir = FileChannel.open(folder, StandardOpenOption.READ)) {
                dir.force(true); // the rename itself survives a power loss
            } catch (IOException e) {
                // some file systems cannot open a folder for reading; the file's own content is forced already
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
    }
}
