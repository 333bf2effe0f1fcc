package io.pylon.integration.web;

import org.jspecify.annotations.Nullable;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.pylon.integration.store.RunRecord;
import io.pylon.integration.store.StepRecord;
import io.pylon.integration.store.StoredFlow;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/** The JSON shapes of flows, runs and step attempts in answers. */
final class Views {
    private final ObjectMapper json;

    Views(ObjectMapper json) {
        this.json = json;
    }

    Map<String, Object> flow(StoredFlow flow, boolean withDocument, @Nullable Instant nextRun) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("name", flow.name());
        out.put("version", flow.version());
        out.put("hasTriggerKey", flow.hasTriggerKey());
        out.put("createdAt", text(flow.createdAt()));
        out.put("updatedAt", text(flow.updatedAt()));
        if (nextRun != null) {
            out.put("nextRun", nextRun.toString());
        }
        if (withDocument) {
            out.put("document", flow.document());
        }
        return out;
    }

    Map<String, Object> run(RunRecord run, boolean withInput) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("id", run.id());
        out.put("seq", run.seq());
        out.put("flow", run.flow());
        out.put("trigger", run.trigger());
        out.put("status", run.status());
        out.put("createdAt", text(run.createdAt()));
        out.put("scheduledAt", text(run.scheduledAt()));
        out.put("startedAt", text(run.startedAt()));
        out.put("finishedAt", text(run.finishedAt()));
        out.put("pod", run.pod());
        out.put("attempts", run.attempts());
        out.put("error", run.error());
        if (withInput) {
            out.put("input", parsed(run.input()));
        }
        return out;
    }

    Map<String, Object> step(StepRecord step) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("seq", step.seq());
        out.put("step", step.stepId());
        out.put("kind", step.kind());
        out.put("phase", step.phase());
        out.put("attempt", step.attempt());
        out.put("status", step.status());
        out.put("startedAt", text(step.startedAt()));
        out.put("finishedAt", text(step.finishedAt()));
        out.put("httpStatus", step.httpStatus());
        out.put("output", step.truncated() ? step.output() : parsed(step.output()));
        out.put("outputBytes", step.outputBytes());
        out.put("truncated", step.truncated());
        out.put("error", step.error());
        return out;
    }

    /** Stored JSON text as JSON; text that no longer parses (cut) as a string. */
    private @Nullable Object parsed(@Nullable String text) {
        if (text == null) {
            return null;
        }
        try {
            JsonNode node = json.readTree(text);
            return node;
        } catch (java.io.IOException e) {
            return text;
        }
    }

    private static @Nullable String text(@Nullable Instant instant) {
        return instant == null ? null : instant.toString();
    }
}
