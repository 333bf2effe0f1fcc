package io.pylon.core.diagnostics;

import org.jspecify.annotations.Nullable;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.management.HotSpotDiagnosticMXBean;
import io.pylon.core.http.Json;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import io.pylon.core.storage.BudgetExceededException;
import io.pylon.core.storage.DataBudget;
import io.pylon.core.storage.PrivateFiles;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Set;
import java.util.UUID;

/**
 * The virtual threads of the JVM, which {@link java.lang.management.ThreadMXBean} does not see: read from the JDK's
 * own thread dump ({@link HotSpotDiagnosticMXBean#dumpThreads}, JSON) written to a temporary file and deleted at
 * once. On JDK 21 to 24 that dump has no state or lock details for them; JDK 25 adds both.
 */
final class VirtualThreadDump {
    static final String FILE_PREFIX = "pylon-threads-";

    /** What one file is assumed to take until it is written (the JDK writes it; its size is known only after). */
    static final long ESTIMATE = 8L << 20;

    private final Path dir;
    private final DataBudget budget;
    private final DataBudget.Kind kind;
    private final @Nullable HotSpotDiagnosticMXBean hotSpot = hotSpot();

    VirtualThreadDump(Path dir) {
        this(dir, new DataBudget(Long.MAX_VALUE, "none", false));
    }

    VirtualThreadDump(Path dir, DataBudget budget) {
        this.dir = dir;
        this.budget = budget;
        this.kind = budget.kind("thread dump files", 64, 64 * ESTIMATE, "at most 64 thread dump files of the JDK");
    }

    /** Appends the virtual threads section (or why it is missing) to a thread dump text. */
    void append(StringBuilder out, Set<Long> platformIds) {
        if (hotSpot == null) {
            out.append("Virtual threads: not included (this JVM has no thread dump facility for them).\n");
            return;
        }
        JsonNode dump;
        Path file = dir.resolve(FILE_PREFIX + UUID.randomUUID() + ".json");
        DataBudget.Reservation reservation;
        try {
            reservation = budget.reserve(kind, ESTIMATE);
        } catch (BudgetExceededException e) {
            out.append("Virtual threads: not included (").append(e.getMessage()).append(").\n");
            return;
        }
        try (reservation) {
            hotSpot.dumpThreads(file.toString(), HotSpotDiagnosticMXBean.ThreadDumpFormat.JSON);
            PrivateFiles.restrictFile(file);
            reservation.resize(Files.size(file));
            dump = Json.MAPPER.readTree(file.toFile());
        } catch (IOException | RuntimeException e) {
            out.append("Virtual threads: not included (the JDK thread dump failed: ")
                    .append(e.getClass().getSimpleName()).append(").\n");
            return;
        } finally {
            try {
                Files.deleteIfExists(file);
            } catch (IOException ignored) {
                // removed with the other leftovers at the next start
            }
        }
        StringBuilder threads = new StringBuilder();
        int count = 0;
        for (JsonNode container : dump.path("threadDump").path("threadContainers")) {
            for (JsonNode thread : container.path("threads")) {
                long tid = thread.path("tid").asLong(-1);
                boolean virtual = thread.has("virtual") ? thread.path("virtual").asBoolean() : !platformIds.contains(tid);
                if (virtual) {
                    count++;
                    appendThread(threads, thread, tid, container.path("container").asText());
                }
            }
        }
        out.append("Virtual threads (").append(count).append("):\n\n").append(threads);
    }

    private static void appendThread(StringBuilder out, JsonNode thread, long tid, String container) {
        out.append('"').append(thread.path("name").asText()).append("\" #").append(tid).append(" virtual");
        if (!container.isEmpty()) {
            out.append(" container=").append(container);
        }
        out.append('\n');
        if (thread.hasNonNull("state")) {
            out.append("   java.lang.Thread.State: ").append(thread.path("state").asText()).append('\n');
        }
        String waitingOn = lock(thread, "waitingOn", "blockedOn", "parkBlocker");
        int depth = 0;
        for (Iterator<JsonNode> frames = thread.path("stack").elements(); frames.hasNext(); depth++) {
            out.append("\tat ").append(frames.next().asText()).append('\n');
            if (depth == 0 && waitingOn != null) {
                out.append("\t- waiting on ").append(waitingOn).append('\n');
            }
            for (JsonNode owned : thread.path("monitorsOwned")) {
                if (owned.path("depth").asInt(-1) == depth) {
                    for (JsonNode lock : owned.path("locks")) {
                        out.append("\t- locked ").append(lock.asText()).append('\n');
                    }
                }
            }
        }
        out.append('\n');
    }

    private static @Nullable String lock(JsonNode thread, String... fields) {
        for (String field : fields) {
            JsonNode value = thread.get(field);
            if (value != null && !value.isNull()) {
                return value.isTextual() ? value.asText() : value.toString();
            }
        }
        return null;
    }

    private static @Nullable HotSpotDiagnosticMXBean hotSpot() {
        try {
            return ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
        } catch (RuntimeException | LinkageError e) {
            return null;
        }
    }
}
