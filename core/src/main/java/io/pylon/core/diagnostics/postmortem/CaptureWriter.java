package io.pylon.core.diagnostics.postmortem;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.pylon.core.diagnostics.DiagnosticsQuery;
import io.pylon.core.diagnostics.LocalDiagnostics;
import io.pylon.core.diagnostics.SectionFailedException;
import io.pylon.core.http.Json;
import org.jspecify.annotations.Nullable;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.zip.Deflater;
import java.util.zip.GZIPOutputStream;

/**
 * Builds one capture: the envelope, the trigger and time, then the thread dump, the top of the class histogram
 * counted without a full collection ({@code GC.class_histogram -all}: a capture must not stop the pod it
 * describes), and the jvm, threads, connections (Worker) and health sections, each from the pod's own sections
 * outside the heavy-call limit. The JSON is gzip-compressed; one over the size bound loses the end of its thread
 * dump (marked {@code threadDumpTruncated}), then the whole dump, until it fits.
 *
 * <p>Threading: stateless; the {@link BlackBox} calls it under its own lock, one capture at a time.
 */
final class CaptureWriter {
    static final int HISTOGRAM_TOP = 30;
    private static final List<String> SECTIONS = List.of("jvm", "threads", "connections", "health");
    private static final DiagnosticsQuery HISTOGRAM = DiagnosticsQuery.of(Map.of(
            "top", List.of(String.valueOf(HISTOGRAM_TOP)), "live", List.of("false")));

    private final LocalDiagnostics local;
    private final long maxBytes;

    CaptureWriter(LocalDiagnostics local, long maxBytes) {
        this.local = local;
        this.maxBytes = maxBytes;
    }

    /** The capture of this moment, compressed and within the size bound. */
    byte[] write(CaptureId id, List<BlackBox.Firing> firings, boolean withSections) throws IOException {
        long t0 = System.nanoTime();
        ObjectNode capture = local.envelope();
        capture.put("id", id.text());
        capture.put("trigger", id.trigger().id());
        capture.put("reason", firings.getFirst().reason());
        capture.put("time", id.time().toString());
        ArrayNode others = capture.putArray("alsoTriggered");
        for (BlackBox.Firing firing : firings.subList(1, firings.size())) {
            others.addObject().put("trigger", firing.trigger().id()).put("reason", firing.reason());
        }
        ObjectNode millis = Json.MAPPER.createObjectNode();
        if (withSections) {
            timed(capture, millis, "threadDump", "threaddump", DiagnosticsQuery.EMPTY);
            timed(capture, millis, "histogram", "histogram", HISTOGRAM);
            for (String name : SECTIONS) {
                timed(capture, millis, name, name, DiagnosticsQuery.EMPTY);
            }
        }
        capture.put("tookMillis", (System.nanoTime() - t0) / 1_000_000);
        capture.set("sectionMillis", millis);
        capture.put("writtenAt", Instant.now().toString());
        return fitted(capture);
    }

    private void timed(ObjectNode capture, ObjectNode millis, String key, String name, DiagnosticsQuery query) {
        long t0 = System.nanoTime();
        JsonNode content = section(name, query);
        if (content != null) {
            capture.set(key, content);
            millis.put(key, (System.nanoTime() - t0) / 1_000_000);
        }
    }

    private @Nullable JsonNode section(String name, DiagnosticsQuery query) {
        try {
            return local.collectUnlimited(name, query);
        } catch (SectionFailedException | io.pylon.core.diagnostics.DiagnosticsRefusedException e) {
            ObjectNode error = Json.MAPPER.createObjectNode();
            error.putObject("error").put("message", e.getMessage());
            return error;
        }
    }

    private byte[] fitted(ObjectNode capture) throws IOException {
        byte[] bytes = gzip(capture);
        for (int attempt = 0; bytes.length > maxBytes && attempt < 3 && capture.path("threadDump").isTextual(); attempt++) {
            String dump = capture.path("threadDump").asText();
            int keep = (int) (dump.length() * (maxBytes * 0.9 / bytes.length));
            capture.put("threadDump", dump.substring(0, Math.max(0, keep)));
            capture.put("threadDumpTruncated", true);
            bytes = gzip(capture);
        }
        if (bytes.length > maxBytes) {
            capture.remove("threadDump");
            capture.put("threadDumpTruncated", true);
            bytes = gzip(capture);
        }
        if (bytes.length > maxBytes) {
            capture.remove(List.of("histogram", "threads"));
            capture.put("sectionsDropped", "the capture exceeded " + maxBytes + " bytes");
            bytes = gzip(capture);
        }
        return bytes;
    }

    private static byte[] gzip(JsonNode capture) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream(256 * 1024);
        try (OutputStream gzip = new GZIPOutputStream(out, 64 * 1024) {
            {
                def.setLevel(Deflater.BEST_SPEED);
            }
        }) {
            Json.MAPPER.writeValue(gzip, capture);
        }
        return out.toByteArray();
    }
}
