package io.pylon.core.diagnostics;

import com.sun.management.HotSpotDiagnosticMXBean;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.pylon.core.http.ErrorBody;
import io.pylon.core.pod.PodIdentity;
import org.jspecify.annotations.Nullable;

import io.pylon.core.storage.BudgetExceededException;
import io.pylon.core.storage.DataBudget;
import io.pylon.core.storage.PrivateFiles;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.zip.Deflater;
import java.util.zip.GZIPOutputStream;

/**
 * {@code heapdump}: the JVM writes an HPROF file to the dump directory, which is then streamed with a fixed buffer
 * and a {@code Content-Length}, and deleted when the response ends, completed or not. One dump at a time.
 * {@code compress=gzip} compresses while streaming (fastest level, chunked transfer, no {@code Content-Length}):
 * no second file on disk and no wait for a whole compression pass before the first byte. (The JVM's own
 * {@code GC.heap_dump -gz} is not reachable through the DiagnosticCommand MBean.)
 *
 * <p>A download that makes no progress for the stall timeout is aborted ({@link StallWatchdog}), so a client that
 * stops reading cannot keep the permit and the file. The file is deleted and the permit released once its last chunk
 * has been read into memory, before that chunk is written: a client that asks again the moment it received the last
 * byte finds the permit free.
 */
public final class HeapDumper {
    static final String FILE_PREFIX = "pylon-heapdump-";
    private static final System.Logger LOG = System.getLogger(HeapDumper.class.getName());
    private static final int BUFFER_SIZE = 64 * 1024;
    private static final int RETRY_AFTER_SECONDS = 30;
    private static final Status INSUFFICIENT_STORAGE = Status.create(507, "Insufficient Storage");
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'", Locale.ROOT)
            .withZone(ZoneOffset.UTC);

    private final PodIdentity identity;
    private final DumpDirectory dumps;
    private final ConcurrencyLimit oneAtATime = new ConcurrencyLimit(1, "heap dump", RETRY_AFTER_SECONDS);
    private final @Nullable HotSpotDiagnosticMXBean hotSpot = hotSpot();
    private final Duration stallTimeout;
    private final DataBudget budget;
    private final DataBudget.Kind kind;

    HeapDumper(PodIdentity identity, DumpDirectory dumps, Duration stallTimeout, DataBudget budget) {
        this.identity = identity;
        this.dumps = dumps;
        this.stallTimeout = stallTimeout;
        this.budget = budget;
        this.kind = budget.kind("heap dumps", 1, Long.MAX_VALUE, "one heap dump at a time");
    }

    /** Streams this pod's heap dump (parameters {@code live}, {@code compress}) or answers the JSON error. */
    public void send(ServerRequest req, ServerResponse res) {
        Optional<Boolean> live = flag(req, "live", true);
        if (live.isEmpty()) {
            ErrorBody.send(res, Status.BAD_REQUEST_400, "invalid_request", "The query parameter 'live' must be true or false.");
            return;
        }
        String compress = req.query().first("compress").orElse("").toLowerCase(Locale.ROOT);
        if (!compress.isEmpty() && !compress.equals("gzip") && !compress.equals("none")) {
            ErrorBody.send(res, Status.BAD_REQUEST_400, "invalid_request",
                    "The query parameter 'compress' must be gzip or none.");
            return;
        }
        boolean gzip = compress.equals("gzip");
        HotSpotDiagnosticMXBean bean = hotSpot;
        if (bean == null) {
            ErrorBody.send(res, Status.SERVICE_UNAVAILABLE_503, "service_unavailable", "This JVM cannot write heap dumps.");
            return;
        }
        ConcurrencyLimit.Permit permit;
        try {
            permit = oneAtATime.enter();
        } catch (DiagnosticsBusyException e) {
            res.header(HeaderNames.RETRY_AFTER, String.valueOf(e.retryAfterSeconds()));
            ErrorBody.send(res, Status.create(429, "Too Many Requests"), "too_many_requests", e.getMessage());
            return;
        }
        try (permit) {
            dumpAndSend(bean, res, live.get(), gzip, permit);
        }
    }

    private void dumpAndSend(HotSpotDiagnosticMXBean hotSpot, ServerResponse res, boolean live, boolean gzip, ConcurrencyLimit.Permit permit) {
        long required = dumps.heapDumpRequirement();
        long free;
        try {
            free = dumps.usableSpace();
        } catch (IOException e) {
            free = -1;
        }
        if (free < required) {
            new ErrorBody("insufficient_storage", "The dump directory has " + mib(Math.max(free, 0))
                    + " MiB free; a heap dump needs about " + mib(required) + " MiB (the heap in use plus a tenth).",
                    Map.of("freeBytes", free, "requiredBytes", required)).send(res, INSUFFICIENT_STORAGE);
            return;
        }
        DataBudget.Reservation reservation;
        try {
            reservation = budget.reserve(kind, required);
        } catch (BudgetExceededException e) {
            new ErrorBody("insufficient_storage", e.getMessage() + " A heap dump needs about " + mib(required)
                    + " MiB (the heap in use plus a tenth).", e.details()).send(res, INSUFFICIENT_STORAGE);
            return;
        }
        Path file = dumps.newFile(FILE_PREFIX, ".hprof");
        try (reservation) {
            long t0 = System.nanoTime();
            try {
                hotSpot.dumpHeap(file.toString(), live);
            } catch (Exception e) {
                LOG.log(Level.WARNING, "Heap dump failed: " + e.getClass().getSimpleName());
                ErrorBody.send(res, Status.INTERNAL_SERVER_ERROR_500, "server_error",
                        "The JVM could not write the heap dump (" + e.getClass().getSimpleName() + ").");
                return;
            }
            PrivateFiles.restrictFile(file);
            long size = Files.size(file);
            try {
                reservation.resize(size);
            } catch (BudgetExceededException e) {
                // larger than the estimate and no room left: it is sent and deleted now, not kept
                LOG.log(Level.INFO, "The heap dump is larger than its estimate: " + e.getMessage());
            }
            LOG.log(Level.INFO, String.format(Locale.ROOT, "Heap dump of %d MiB written in %d ms; sending it",
                    size / (1024 * 1024), (System.nanoTime() - t0) / 1_000_000));
            stream(res, file, size, gzip, () -> {
                permit.close();
                reservation.close(); // with the permit: the next dump may start the moment this one's last byte is read
            });
        } catch (IOException | UncheckedIOException e) {
            // The client went away mid-download (or the file vanished): nothing to answer, only to clean up.
            LOG.log(Level.INFO, "Heap dump download ended early: " + e.getClass().getSimpleName());
        } finally {
            delete(file);
        }
    }

    private void stream(ServerResponse res, Path file, long size, boolean gzip, Runnable release) throws IOException {
        String filename = safe(identity.podName()) + "-" + STAMP.format(Instant.now()) + (gzip ? ".hprof.gz" : ".hprof");
        res.status(Status.OK_200);
        res.header(HeaderNames.CONTENT_TYPE, "application/octet-stream");
        res.header(HeaderNames.CONTENT_DISPOSITION, "attachment; filename=\"" + filename + "\"");
        if (!gzip) {
            res.header(HeaderNames.CONTENT_LENGTH, String.valueOf(size));
        }
        res.header(HeaderNames.CACHE_CONTROL, "no-store");
        byte[] buffer = new byte[BUFFER_SIZE];
        long t0 = System.nanoTime();
        try (StallWatchdog watchdog = new StallWatchdog(stallTimeout)) {
            try (OutputStream out = gzip ? new FastGzip(res.outputStream()) : res.outputStream()) {
                try (InputStream in = Files.newInputStream(file)) {
                    long unread = size;
                    int read;
                    while ((read = in.read(buffer)) >= 0) {
                        unread -= read;
                        if (unread <= 0) {
                            // The last chunk is in memory: free the file and the permit before the client can have it.
                            delete(file);
                            release.run();
                        }
                        out.write(buffer, 0, read);
                        watchdog.progress();
                    }
                }
                delete(file);
                release.run();
            } catch (IOException | RuntimeException e) {
                // Helidon may wrap the interrupted write in its own runtime exception: whatever it is, it ends here.
                if (watchdog.fired()) {
                    LOG.log(Level.WARNING, String.format(Locale.ROOT,
                            "Heap dump download aborted after %d ms: the client read nothing for %d ms (%s)",
                            (System.nanoTime() - t0) / 1_000_000, stallTimeout.toMillis(), e.getClass().getSimpleName()));
                }
                throw e;
            }
        }
    }

    private static void delete(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            LOG.log(Level.WARNING, "Cannot delete the heap dump " + file + ": " + e.getClass().getSimpleName());
        }
    }

    private static Optional<Boolean> flag(ServerRequest req, String name, boolean absent) {
        String raw = req.query().first(name).orElse("").toLowerCase(Locale.ROOT);
        return switch (raw) {
            case "" -> Optional.of(absent);
            case "true" -> Optional.of(true);
            case "false" -> Optional.of(false);
            default -> Optional.empty();
        };
    }

    private static String safe(String podName) {
        return podName.replaceAll("[^A-Za-z0-9._-]", "_");
    }

    private static long mib(long bytes) {
        return bytes / (1024 * 1024);
    }

    private static @Nullable HotSpotDiagnosticMXBean hotSpot() {
        try {
            return ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
        } catch (RuntimeException | LinkageError e) {
            return null;
        }
    }

    /** Gzip at the fastest level: a dump compresses well even so, and the CPU of a busy pod matters more. */
    private static final class FastGzip extends GZIPOutputStream {
        FastGzip(OutputStream out) throws IOException {
            super(out, BUFFER_SIZE);
            def.setLevel(Deflater.BEST_SPEED);
        }
    }
}
