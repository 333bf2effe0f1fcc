package io.pylon.integration.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.pylon.integration.flow.Flow;
import io.pylon.integration.flow.FlowSchedule;
import io.pylon.integration.flow.Trigger;
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

    /**
     * A flow: what is stored, its trigger as parsed ({@code parsed} null when the stored document no longer parses),
     * the next scheduled run and the newest run (null when there is none or it was not asked).
     */
    Map<String, Object> flow(StoredFlow flow, Flow parsed, boolean withDocument, Instant nextRun, RunRecord lastRun) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("name", flow.name());
        out.put("version", flow.version());
        out.put("enabled", flow.enabled());
        out.put("hasTriggerKey", flow.hasTriggerKey());
        if (parsed != null) {
            out.put("trigger", trigger(parsed.trigger()));
            out.put("concurrency", parsed.concurrency().name().toLowerCase(java.util.Locale.ROOT));
        }
        out.put("createdAt", text(flow.createdAt()));
        out.put("updatedAt", text(flow.updatedAt()));
        if (nextRun != null) {
            out.put("nextRun", nextRun.toString());
        }
        if (lastRun != null) {
            Map<String, Object> last = new LinkedHashMap<>();
            last.put("id", lastRun.id());
            last.put("status", lastRun.status());
            last.put("trigger", lastRun.trigger());
            last.put("scheduledAt", text(lastRun.scheduledAt()));
            last.put("startedAt", text(lastRun.startedAt()));
            last.put("finishedAt", text(lastRun.finishedAt()));
            out.put("lastRun", last);
        }
        if (withDocument) {
            out.put("document", flow.document());
        }
        return out;
    }

    private static Map<String, Object> trigger(Trigger trigger) {
        Map<String, Object> out = new LinkedHashMap<>();
        FlowSchedule schedule = trigger.schedule();
        if (schedule != null) {
            out.put("schedule", Map.of("cron", schedule.cron().expression(), "timezone", schedule.zone().getId(),
                    "misfire", schedule.misfire().text()));
        }
        out.put("http", trigger.http());
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
    private Object parsed(String text) {
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

    private static String text(Instant instant) {
        return instant == null ? null : instant.toString();
    }
}
