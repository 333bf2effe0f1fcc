package io.pylon.core.diagnostics.postmortem;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.pylon.core.diagnostics.DiagnosticSection;
import io.pylon.core.diagnostics.DiagnosticsQuery;
import io.pylon.core.diagnostics.DiagnosticsRefusedException;
import io.pylon.core.diagnostics.InvalidParameterException;
import io.pylon.core.http.Json;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;

/**
 * {@code postmortem}: the black box's captures. Without parameters, this pod's list (newest first) with each
 * trigger's counts; {@code ?id=<id>} (or the path {@code postmortem/<id>}) one capture. A broadcast adds
 * top-level {@code postmortem.recent}: the newest captures of every pod, each with its pod's name.
 *
 * <p>Threading: stateless; the store and the black box are thread-safe.
 */
public final class PostmortemSection implements DiagnosticSection {
    public static final String NAME = "postmortem";
    /** How many captures the fleet list of a broadcast shows. */
    static final int RECENT = 100;

    private final BlackBox blackBox;
    private final Map<String, Object> limits;

    PostmortemSection(BlackBox blackBox, Map<String, Object> limits) {
        this.blackBox = blackBox;
        this.limits = limits;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public boolean inAll() {
        return false;
    }

    @Override
    public void validate(String method, DiagnosticsQuery query) {
        query.text("id").ifPresent(PostmortemSection::id);
    }

    @Override
    public Object collect() {
        return collect(DiagnosticsQuery.EMPTY);
    }

    @Override
    public Object collect(DiagnosticsQuery query) {
        validate("GET", query);
        if (query.text("id").isPresent()) {
            return read(id(query.text("id").get()));
        }
        Map<String, Object> answer = new LinkedHashMap<>();
        List<CaptureInfo> captures = blackBox.store().list();
        answer.put("count", captures.size());
        answer.put("captures", captures);
        answer.put("triggers", blackBox.triggers());
        answer.put("limits", limits);
        return answer;
    }

    private JsonNode read(CaptureId id) {
        byte[] bytes;
        try {
            bytes = blackBox.store().read(id).orElseThrow(() -> new DiagnosticsRefusedException(404, "not_found",
                    "This pod has no capture '" + id + "'; GET postmortem lists its captures."));
        } catch (IOException e) {
            throw new DiagnosticsRefusedException(500, "capture_unreadable",
                    "The capture could not be read (" + e.getClass().getSimpleName() + ").");
        }
        try (InputStream in = new GZIPInputStream(new java.io.ByteArrayInputStream(bytes))) {
            return Json.MAPPER.readTree(in);
        } catch (IOException e) {
            throw new DiagnosticsRefusedException(500, "capture_unreadable",
                    "The capture is damaged (" + e.getClass().getSimpleName() + ").");
        }
    }

    static CaptureId id(String text) {
        return CaptureId.parse(text).orElseThrow(() -> new InvalidParameterException("id", "The capture id must look "
                + "like 20261123T081502123Z-deadlock-3fa9: a UTC time, a trigger and 4 hexadecimal digits."));
    }

    @Override
    public boolean aggregates() {
        return true;
    }

    @Override
    public Object aggregate(List<JsonNode> pods) {
        List<ObjectNode> recent = new ArrayList<>();
        for (JsonNode pod : pods) {
            for (JsonNode capture : pod.path(NAME).path("captures")) {
                if (capture.isObject()) {
                    ObjectNode entry = Json.MAPPER.createObjectNode();
                    entry.put("podName", pod.path("podName").asText());
                    entry.setAll((ObjectNode) capture);
                    recent.add(entry);
                }
            }
        }
        // ids begin with the time in a fixed width, so they sort by time
        recent.sort(Comparator.comparing((ObjectNode n) -> n.path("id").asText()).reversed()
                .thenComparing(n -> n.path("podName").asText()));
        ObjectNode summary = Json.MAPPER.createObjectNode();
        summary.put("count", recent.size());
        ArrayNode list = summary.putArray("recent");
        recent.stream().limit(RECENT).forEach(list::add);
        return summary;
    }
}
