package io.pylon.core.diagnostics;

import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * {@code jfr}: JDK Flight Recordings of the pod. {@code GET} lists them ({@code ?id=..&view=summary}: the summary of a
 * finished one, heavy); {@code POST ?duration=60s&settings=pylon|default|profile&maxSizeMb=100} starts one (at most one
 * runs per pod); {@code DELETE ?id=} stops and removes one. The download ({@code GET ?download=<id>}) is a stream, not
 * an object: the diagnostics endpoint sends it like a heap dump.
 *
 * <p>Threading: stateless itself; {@link FlightRecordings} holds the recordings under its lock.
 */
final class JfrSection implements DiagnosticSection {
    static final Duration MIN_DURATION = Duration.ofSeconds(1);
    static final Duration MAX_DURATION = Duration.ofHours(1);
    private static final Pattern ID = Pattern.compile("[0-9a-f]{8}");

    private final FlightRecordings recordings;

    JfrSection(FlightRecordings recordings) {
        this.recordings = recordings;
    }

    @Override
    public String name() {
        return "jfr";
    }

    @Override
    public boolean inAll() {
        return false;
    }

    @Override
    public Set<String> changes() {
        return Set.of("POST", "DELETE");
    }

    /** Starting a recording (its summary is a read of a file: only the concurrency limit applies). */
    @Override
    public boolean rateLimited(String method, DiagnosticsQuery query) {
        return "POST".equals(method);
    }

    @Override
    public boolean heavy(DiagnosticsQuery query) {
        return query.text("view").isPresent();
    }

    @Override
    public void validate(String method, DiagnosticsQuery query) {
        switch (method) {
            case "POST" -> request(query);
            case "DELETE" -> requiredId(query, "id");
            default -> {
                query.choice("view", "list", List.of("list", "summary"));
                if ("summary".equals(query.choice("view", "list", List.of("list", "summary")))) {
                    requiredId(query, "id");
                }
                optionalId(query, "download");
                query.choice("compress", "none", List.of("none", "gzip"));
            }
        }
    }

    @Override
    public Object collect() throws Exception {
        return collect(DiagnosticsQuery.EMPTY);
    }

    @Override
    public Object collect(DiagnosticsQuery query) throws Exception {
        validate("GET", query);
        if ("summary".equals(query.choice("view", "list", List.of("list", "summary")))) {
            String id = requiredId(query, "id");
            Map<String, Object> answer = new LinkedHashMap<>();
            answer.put("id", id);
            answer.put("summary", RecordingSummary.of(recordings.finishedFile(id)));
            return answer;
        }
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("recordings", recordings.list());
        return answer;
    }

    @Override
    public Object change(String method, DiagnosticsQuery query) {
        if ("POST".equals(method)) {
            return recordings.start(request(query));
        }
        return recordings.delete(requiredId(query, "id"));
    }

    /** {@code maxSizeMb} is at most 1024 and at most the recordings' share of the data directory's budget. */
    FlightRecordings.Request request(DiagnosticsQuery query) {
        Duration duration = query.duration("duration", Duration.ofSeconds(60), MIN_DURATION, MAX_DURATION);
        String settings = query.choice("settings", RecordingSettings.PYLON, RecordingSettings.NAMES);
        int largest = (int) Math.max(1, Math.min(1024, recordings.maxRecordingBytes() / (1024 * 1024)));
        int maxSizeMb = query.integer("maxSizeMb", Math.min(100, largest), 1, largest);
        return new FlightRecordings.Request(duration, settings, maxSizeMb * 1024L * 1024L);
    }

    static String requiredId(DiagnosticsQuery query, String parameter) {
        return checkedId(parameter, query.required(parameter));
    }

    static @Nullable String optionalId(DiagnosticsQuery query, String parameter) {
        String id = query.text(parameter).orElse(null);
        return id == null ? null : checkedId(parameter, id);
    }

    private static String checkedId(String parameter, String id) {
        if (!ID.matcher(id).matches()) {
            throw new InvalidParameterException(parameter, "The query parameter '" + parameter
                    + "' must be a recording id: 8 hexadecimal digits.");
        }
        return id;
    }
}
