package io.pylon.core.diagnostics;

import io.pylon.core.storage.BudgetExceededException;
import io.pylon.core.storage.DataBudget;
import io.pylon.core.storage.PrivateFiles;
import io.pylon.core.storage.StorageSettings;
import jdk.jfr.Recording;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The pod's JDK Flight Recordings: at most one running at a time, each written to {@code pylon-recording-<id>.jfr}
 * under the recordings directory when its duration ends, then kept until it is downloaded, deleted, or its retention
 * time passes (the maintenance executor removes it). Files left by an earlier run are removed at start-up.
 *
 * <p>The maintenance executor ends a recording itself rather than leaving it to JFR's duration and destination: JFR
 * marks a recording stopped before it has written the destination file, so a reader could see an empty or partial
 * file as finished. Here the recording is dumped to {@code <name>.part} and moved into place; a recording is FINISHED
 * only once its whole file is there.
 *
 * <p>Every recording counts against the data directory's budget: a running one holds its {@code maxSizeBytes} (its
 * chunks in the JFR repository, which lives in this directory), its copy while it is written holds its size besides,
 * and a finished one its file's size. Finished ones may be removed, oldest first, to make room
 * ({@link DataBudget.Reservation#evictable}). Files are 0600 in a 0700 folder: they hold what the JVM records.
 *
 * <p>Threading: every method holds the instance lock, and an entry's phase changes only under it; the {@link Recording}
 * objects are touched under it except for the dump, which runs on the maintenance thread outside it (a delete during
 * the dump closes the recording, the dump fails or its file is removed). A finished file is read (download, summary)
 * outside the lock, which is safe because it never changes and its deletion waits for no reader (an open file stays
 * readable on Linux).
 */
public final class FlightRecordings implements AutoCloseable {
    static final String PREFIX = "pylon-recording-";
    private static final System.Logger LOG = System.getLogger(FlightRecordings.class.getName());

    private final Path dir;
    private final Duration retention;
    private final ScheduledExecutorService maintenance;
    private final Clock clock;
    private final Map<String, Entry> entries = new LinkedHashMap<>();
    private final DataBudget budget;
    private final DataBudget.Kind kind;

    /** What a caller asks for. */
    public record Request(Duration duration, String settings, long maxSizeBytes) {
    }

    private enum Phase { RUNNING, FINISHED, FAILED }

    private static final class Entry {
        final String id;
        final Recording recording;
        final Request request;
        final Path file;
        final Instant startedAt;
        final DataBudget.Reservation reservation;
        Phase phase = Phase.RUNNING;

        Entry(String id, Recording recording, Request request, Path file, Instant startedAt,
              DataBudget.Reservation reservation) {
            this.id = id;
            this.recording = recording;
            this.request = request;
            this.file = file;
            this.startedAt = startedAt;
            this.reservation = reservation;
        }
    }

    public FlightRecordings(Path dir, Duration retention, ScheduledExecutorService maintenance, Clock clock) {
        this(dir, retention, maintenance, clock, new DataBudget(Long.MAX_VALUE, "none", false), 100, Long.MAX_VALUE);
    }

    /**
     * @param maxCount most recordings kept at once (running and finished)
     * @param maxBytes most bytes they take together; also the largest {@code maxSizeBytes} one may ask for
     */
    public FlightRecordings(Path dir, Duration retention, ScheduledExecutorService maintenance, Clock clock,
                            DataBudget budget, int maxCount, long maxBytes) {
        this.dir = PrivateFiles.folder(dir);
        this.retention = retention;
        this.maintenance = maintenance;
        this.clock = clock;
        this.budget = budget;
        this.kind = budget.kind("flight recordings", maxCount, maxBytes, StorageSettings.RECORDINGS_MAX_COUNT.key()
                + " / " + StorageSettings.RECORDINGS_MAX_BYTES.key());
        removeLeftovers();
        JfrRepository.moveInto(this.dir.resolve(JfrRepository.FOLDER));
    }

    /** The largest size a recording may ask for: its kind's share of the budget. */
    public long maxRecordingBytes() {
        return kind.maxBytes();
    }

    /** Starts a recording; refused with 409 while another one runs, 507 when the disk cannot hold its maximum size. */
    public synchronized Map<String, Object> start(Request request) {
        for (Entry entry : entries.values()) {
            if (running(entry)) {
                throw new DiagnosticsRefusedException(409, "conflict", "Recording " + entry.id
                        + " is still running on this pod (at most one at a time); delete it or wait until it ends.");
            }
        }
        long free = usableSpace();
        if (free < request.maxSizeBytes()) {
            throw new DiagnosticsRefusedException(507, "insufficient_storage", "The recordings directory has "
                    + free / (1024 * 1024) + " MiB free, less than the maximum size asked for.");
        }
        Map<String, String> settings;
        try {
            settings = RecordingSettings.of(request.settings());
        } catch (IOException | ParseException e) {
            throw new SectionFailedException("jfr", e);
        }
        DataBudget.Reservation reservation;
        try {
            reservation = budget.reserve(kind, request.maxSizeBytes());
        } catch (BudgetExceededException e) {
            throw new DiagnosticsRefusedException(507, "insufficient_storage", e.getMessage(), e.details());
        }
        String id = UUID.randomUUID().toString().substring(0, 8);
        Path file = dir.resolve(PREFIX + id + ".jfr");
        Recording recording = new Recording(settings);
        try {
            recording.setName("pylon-" + id);
            recording.setToDisk(true);
            recording.setMaxSize(request.maxSizeBytes());
            recording.start();
        } catch (RuntimeException e) {
            recording.close();
            reservation.close();
            throw new SectionFailedException("jfr", e);
        }
        Entry entry = new Entry(id, recording, request, file, clock.instant(), reservation);
        entries.put(id, entry);
        maintenance.schedule(() -> finish(id), request.duration().toMillis(), TimeUnit.MILLISECONDS);
        long removeAfter = request.duration().plus(retention).toMillis();
        maintenance.schedule(() -> expire(id), removeAfter, TimeUnit.MILLISECONDS);
        LOG.log(System.Logger.Level.INFO, "Flight recording " + id + " started (" + request.settings() + ", "
                + request.duration().toSeconds() + " s)");
        return describe(entry);
    }

    public synchronized List<Map<String, Object>> list() {
        List<Map<String, Object>> list = new ArrayList<>();
        for (Entry entry : entries.values()) {
            list.add(describe(entry));
        }
        return list;
    }

    /** A finished recording's file; 404 for an unknown id, 409 while it still runs. */
    public synchronized Path finishedFile(String id) {
        Entry entry = entries.get(id);
        if (entry == null) {
            throw unknown(id);
        }
        if (entry.phase == Phase.RUNNING) {
            throw new DiagnosticsRefusedException(409, "conflict", "Recording " + id + " is still running; it can be "
                    + "read when its duration ends.");
        }
        if (entry.phase == Phase.FAILED) {
            throw new DiagnosticsRefusedException(409, "conflict", "Recording " + id + " could not be written to disk "
                    + "(see the pod's log); delete it and start another.");
        }
        return entry.file;
    }

    /** Stops (if running) and removes a recording with its file; 404 for an unknown id. */
    public synchronized Map<String, Object> delete(String id) {
        Entry entry = entries.remove(id);
        if (entry == null) {
            throw unknown(id);
        }
        Map<String, Object> description = describe(entry);
        remove(entry);
        description.put("state", "DELETED");
        return description;
    }

    /** After a complete download the recording has served its purpose: it goes. */
    public synchronized void downloaded(String id) {
        Entry entry = entries.remove(id);
        if (entry != null) {
            remove(entry);
        }
    }

    /** The budget needs room: a finished recording goes before its retention ends. */
    private synchronized void evict(String id) {
        Entry entry = entries.remove(id);
        if (entry != null) {
            remove(entry);
            LOG.log(System.Logger.Level.INFO, "Flight recording " + id + " removed to make room in the data budget");
        }
    }

    private static void remove(Entry entry) {
        entry.recording.close();
        deleteFile(entry.file);
        entry.reservation.close();
    }

    private synchronized void expire(String id) {
        Entry entry = entries.get(id);
        if (entry != null && !running(entry)) {
            entries.remove(id);
            remove(entry);
            LOG.log(System.Logger.Level.INFO, "Flight recording " + id + " removed after its retention time");
        } else if (entry != null) {
            maintenance.schedule(() -> expire(id), retention.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    /** The duration has ended: stop, write the file beside its final name, move it into place. */
    private void finish(String id) {
        Entry entry;
        synchronized (this) {
            entry = entries.get(id);
            if (entry == null || entry.phase != Phase.RUNNING) {
                return;
            }
            entry.recording.stop();
        }
        Path part = entry.file.resolveSibling(entry.file.getFileName() + ".part");
        Phase outcome;
        try {
            // while the copy is written the repository's chunks are still there: both count
            entry.reservation.resize(entry.request.maxSizeBytes() + entry.recording.getSize());
            entry.recording.dump(part);
            PrivateFiles.restrictFile(part);
            Files.move(part, entry.file, StandardCopyOption.ATOMIC_MOVE);
            outcome = Phase.FINISHED;
        } catch (IOException | RuntimeException e) {
            deleteFile(part);
            outcome = Phase.FAILED;
            LOG.log(System.Logger.Level.WARNING, "Flight recording " + id + " could not be written: "
                    + (e instanceof BudgetExceededException ? e.getMessage() : e.getClass().getSimpleName()));
        }
        synchronized (this) {
            if (entries.get(id) == entry) {
                entry.phase = outcome;
                entry.recording.close();
                entry.reservation.resize(outcome == Phase.FINISHED ? fileSize(entry.file) : 0);
                if (outcome == Phase.FINISHED) {
                    entry.reservation.evictable(() -> evict(id));
                }
            } else {
                deleteFile(entry.file);
            }
        }
    }

    private static long fileSize(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            return 0;
        }
    }

    private static boolean running(Entry entry) {
        return entry.phase == Phase.RUNNING;
    }

    private Map<String, Object> describe(Entry entry) {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("id", entry.id);
        boolean running = running(entry);
        map.put("state", entry.phase.name());
        map.put("settings", entry.request.settings());
        map.put("duration", entry.request.duration().toSeconds());
        map.put("maxSizeBytes", entry.request.maxSizeBytes());
        map.put("startedAt", entry.startedAt.toString());
        map.put("endsAt", entry.startedAt.plus(entry.request.duration()).toString());
        map.put("removedAt", entry.startedAt.plus(entry.request.duration()).plus(retention).toString());
        long size = 0;
        try {
            size = running ? entry.recording.getSize() : entry.phase == Phase.FINISHED ? Files.size(entry.file) : 0;
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, "Cannot read the size of " + entry.file.getFileName() + ": "
                    + e.getClass().getSimpleName());
        }
        map.put("sizeBytes", size);
        return map;
    }

    private static DiagnosticsRefusedException unknown(String id) {
        return new DiagnosticsRefusedException(404, "not_found", "No recording with id '" + id + "' on this pod.");
    }

    private long usableSpace() {
        try {
            return Files.getFileStore(dir).getUsableSpace();
        } catch (IOException e) {
            return Long.MAX_VALUE;
        }
    }

    private void removeLeftovers() {
        try (var files = Files.list(dir)) {
            files.filter(f -> f.getFileName().toString().startsWith(PREFIX)).forEach(FlightRecordings::deleteFile);
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, "Cannot list the recordings directory: " + e.getClass().getSimpleName());
        }
    }

    private static void deleteFile(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, "Cannot delete the recording " + file.getFileName() + ": "
                    + e.getClass().getSimpleName());
        }
    }

    /** The pod stops: running recordings are closed and every file goes (nobody could download them any more). */
    @Override
    public synchronized void close() {
        for (Entry entry : entries.values()) {
            remove(entry);
        }
        entries.clear();
    }
}
