package io.pylon.core.diagnostics;

import io.pylon.core.storage.PrivateFiles;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Where heap and thread dumps are written before they are sent: the temporary files carry a {@code pylon-} prefix
 * so that the leftovers of a crash can be removed at start-up without touching anything else in the directory.
 */
final class DumpDirectory {
    private static final System.Logger LOG = System.getLogger(DumpDirectory.class.getName());
    /** Below this much free space the {@code diskSpace} check is DOWN (Spring Boot's default threshold). */
    static final long DISK_SPACE_THRESHOLD = 10L * 1024 * 1024;
    private static final List<String> PREFIXES = List.of(HeapDumper.FILE_PREFIX, VirtualThreadDump.FILE_PREFIX);

    private final Path dir;
    private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();

    DumpDirectory(Path dir) {
        try {
            this.dir = PrivateFiles.folder(dir);
        } catch (UncheckedIOException e) {
            throw new UncheckedIOException("Cannot create the dump directory " + dir + " (setting "
                    + DiagnosticsSettings.DUMP_DIR.key() + ")", e.getCause());
        }
    }

    Path path() {
        return dir;
    }

    /** A new file name in the directory; the file does not exist yet. */
    Path newFile(String prefix, String suffix) {
        return dir.resolve(prefix + UUID.randomUUID() + suffix);
    }

    /** Deletes the dump files a crashed or killed pod left behind; returns how many. */
    int removeLeftovers() {
        int removed = 0;
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
            for (Path file : files) {
                String name = file.getFileName().toString();
                if (PREFIXES.stream().anyMatch(name::startsWith) && Files.isRegularFile(file)) {
                    Files.deleteIfExists(file);
                    removed++;
                }
            }
        } catch (IOException e) {
            LOG.log(Level.WARNING, "Cannot clean the dump directory " + dir + ": " + e.getClass().getSimpleName());
        }
        if (removed > 0) {
            LOG.log(Level.INFO, "Removed " + removed + " leftover dump file(s) from " + dir);
        }
        return removed;
    }

    long usableSpace() throws IOException {
        return Files.getFileStore(dir).getUsableSpace();
    }

    /** What a heap dump may need on disk: the heap in use plus a tenth (HPROF adds headers and object ids). */
    long heapDumpRequirement() {
        long used = memory.getHeapMemoryUsage().getUsed();
        return used + used / 10;
    }

    /** The {@code diskSpace} check of the {@code health} section. */
    Map<String, Object> diskSpace() {
        Map<String, Object> check = new LinkedHashMap<>();
        try {
            long free = usableSpace();
            long total = Files.getFileStore(dir).getTotalSpace();
            long required = heapDumpRequirement();
            check.put("status", free >= DISK_SPACE_THRESHOLD ? "UP" : "DOWN");
            check.put("path", dir.toString());
            check.put("free", free);
            check.put("total", total);
            check.put("threshold", DISK_SPACE_THRESHOLD);
            check.put("heapDumpRequired", required);
            check.put("heapDumpFits", free >= required);
        } catch (IOException e) {
            check.put("status", "DOWN");
            check.put("path", dir.toString());
            check.put("error", "cannot read the free space (" + e.getClass().getSimpleName() + ")");
        }
        return check;
    }
}
