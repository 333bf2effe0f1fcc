package io.pylon.core.diagnostics.postmortem;

import io.pylon.core.storage.BudgetExceededException;
import io.pylon.core.storage.DataBudget;
import io.pylon.core.storage.PrivateFiles;
import java.util.HashMap;
import java.util.Map;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The captures of this pod on disk: {@code <data dir>/postmortem/<id>.json.gz}. A capture is written to a hidden
 * temporary file, forced to disk and renamed into place in one atomic step, so a process killed mid-write leaves
 * only a {@code .tmp} file that is never listed and is removed at the next start. The folder survives a container
 * restart (an {@code emptyDir} lives as long as the pod).
 *
 * <p>Threading: {@link #save} is synchronized (one writer at a time, and pruning sees a stable folder); {@link #list}
 * and {@link #read} run concurrently with it and with each other: a rename is atomic, so they see a capture whole or
 * not at all, and a capture pruned while being read is answered as absent.
 */
public final class CaptureStore {
    private static final System.Logger LOG = System.getLogger(CaptureStore.class.getName());
    private static final String TEMP_SUFFIX = ".tmp";

    private final Path dir;
    private final int maxCount;
    private final DataBudget budget;
    private final DataBudget.Kind kind;
    /** The budget held by each capture on disk, by file name; guarded by this object's monitor. */
    private final Map<String, DataBudget.Reservation> held = new HashMap<>();

    /** A store of its own, outside any pod's budget. */
    public CaptureStore(Path dir, int maxCount) {
        this(dir, maxCount, Long.MAX_VALUE, new DataBudget(Long.MAX_VALUE, "none", false));
    }

    /**
     * @param maxBytes the largest capture; the store's share of the budget is {@code maxCount} of them
     */
    public CaptureStore(Path dir, int maxCount, long maxBytes, DataBudget budget) {
        this.dir = PrivateFiles.folder(dir);
        this.maxCount = maxCount;
        this.budget = budget;
        this.kind = budget.kind("postmortem captures", maxCount + 1, maxBytes == Long.MAX_VALUE ? Long.MAX_VALUE
                : maxBytes * (maxCount + 1), PostmortemSettings.MAX_COUNT.key() + " x " + PostmortemSettings.MAX_BYTES.key());
        removeLeftovers();
        accountExisting();
    }

    public Path dir() {
        return dir;
    }

    /** Writes a capture atomically, then removes the oldest ones beyond the count. */
    public synchronized CaptureInfo save(CaptureId id, byte[] content) throws IOException {
        Path target = dir.resolve(id.fileName());
        Path temp = dir.resolve("." + id.fileName() + TEMP_SUFFIX);
        DataBudget.Reservation reservation;
        try {
            reservation = budget.reserve(kind, content.length);
        } catch (BudgetExceededException e) {
            throw new IOException(e.getMessage());
        }
        try (FileChannel channel = FileChannel.open(temp, java.util.Set.of(StandardOpenOption.CREATE_NEW,
                StandardOpenOption.WRITE), PrivateFiles.fileAttributes())) {
            java.nio.ByteBuffer buffer = java.nio.ByteBuffer.wrap(content);
            while (buffer.hasRemaining()) {
                channel.write(buffer);
            }
            channel.force(true);
        } catch (IOException e) {
            reservation.close();
            Files.deleteIfExists(temp);
            throw e;
        }
        Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE);
        held.put(target.getFileName().toString(), reservation);
        forceDirectory();
        prune();
        return CaptureInfo.of(id, content.length);
    }

    /** Every capture, newest first. */
    public List<CaptureInfo> list() {
        List<CaptureInfo> captures = new ArrayList<>();
        for (Path file : files()) {
            try {
                CaptureId.parse(idOf(file)).ifPresent(id -> {
                    try {
                        captures.add(CaptureInfo.of(id, Files.size(file)));
                    } catch (IOException e) {
                        // pruned between listing and sizing: not listed
                    }
                });
            } catch (RuntimeException e) {
                LOG.log(Level.DEBUG, "Skipping " + file.getFileName());
            }
        }
        captures.sort(Comparator.comparing(CaptureInfo::id).reversed());
        return captures;
    }

    /** The gzip bytes of one capture, if it exists. */
    public Optional<byte[]> read(CaptureId id) throws IOException {
        try {
            return Optional.of(Files.readAllBytes(dir.resolve(id.fileName())));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
    }

    private void prune() throws IOException {
        List<CaptureInfo> captures = list();
        for (int i = maxCount; i < captures.size(); i++) {
            String name = captures.get(i).id() + CaptureId.SUFFIX;
            Files.deleteIfExists(dir.resolve(name));
            DataBudget.Reservation reservation = held.remove(name);
            if (reservation != null) {
                reservation.close();
            }
        }
    }

    // Captures of earlier runs stay for the operator; they count against this run's budget too.
    private synchronized void accountExisting() {
        for (Path file : files()) {
            try {
                PrivateFiles.restrictFile(file);
                held.put(file.getFileName().toString(), budget.reserve(kind, Files.size(file)));
            } catch (IOException | BudgetExceededException e) {
                LOG.log(Level.WARNING, "The capture " + file.getFileName() + " is not counted in the data budget: "
                        + e.getMessage());
            }
        }
    }

    private List<Path> files() {
        List<Path> files = new ArrayList<>();
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir, "*" + CaptureId.SUFFIX)) {
            stream.forEach(files::add);
        } catch (IOException e) {
            LOG.log(Level.WARNING, "Cannot list the postmortem folder: " + e.getClass().getSimpleName());
        }
        return files;
    }

    private static String idOf(Path file) {
        String name = file.getFileName().toString();
        return name.substring(0, name.length() - CaptureId.SUFFIX.length());
    }

    // The rename is durable only once the folder's entry is on disk too (a power loss right after could lose it).
    private void forceDirectory() {
        try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
            channel.force(true);
        } catch (IOException | UnsupportedOperationException e) {
            // some file systems cannot open a folder; the rename itself is still atomic
        }
    }

    private void removeLeftovers() {
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir, ".*" + TEMP_SUFFIX)) {
            for (Path file : stream) {
                Files.deleteIfExists(file);
                LOG.log(Level.INFO, "Removed the half-written capture " + file.getFileName());
            }
        } catch (IOException e) {
            LOG.log(Level.WARNING, "Cannot clean the postmortem folder: " + e.getClass().getSimpleName());
        }
    }
}
