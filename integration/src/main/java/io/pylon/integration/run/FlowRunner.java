package io.pylon.integration.run;

import org.jspecify.annotations.Nullable;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.pylon.integration.flow.Flow;
import io.pylon.integration.flow.Step;
import io.pylon.integration.step.AttemptListener;
import io.pylon.integration.step.Bindings;
import io.pylon.integration.step.StepResult;
import io.pylon.integration.step.StepRunner;
import io.pylon.integration.store.FlowStore;
import io.pylon.integration.store.RunRecord;
import io.pylon.integration.store.RunStore;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.Map;

/**
 * Executes one run of a flow: holds a {@code forbid} flow, records the run and each step attempt in history, runs the
 * steps in order with each output bound under its id, stops at a false condition (skipped) or a failed step (then
 * the onFailure steps run with {@code $error}), and keeps the finished run's outputs as the next run's
 * {@code $previous}. Thread-safe: shared parts only; each call's state is its own.
 */
public final class FlowRunner {
    private static final System.Logger LOG = System.getLogger(FlowRunner.class.getName());

    private final FlowStore flows;
    private final RunStore runs;
    private final StepRunner steps;
    private final ObjectMapper json;
    private final Clock clock;
    private final String pod;
    private final RunListener listener;
    private final int previousMax;

    /** @param previousMax the most characters of step outputs kept as the next run's {@code $previous} */
    public FlowRunner(FlowStore flows, RunStore runs, StepRunner steps, ObjectMapper json, Clock clock, String pod,
                      RunListener listener, int previousMax) {
        this.flows = flows;
        this.runs = runs;
        this.steps = steps;
        this.json = json;
        this.clock = clock;
        this.pod = pod;
        this.listener = listener;
        this.previousMax = previousMax;
    }

    public RunOutcome run(Flow flow, RunRequest request) {
        boolean held = flow.concurrency() == Flow.Concurrency.FORBID;
        if (held && !flows.hold(flow.name(), request.runId())) {
            return RunOutcome.BUSY;
        }
        try {
            Instant started = clock.instant();
            RunRecord record = runs.start(request.runId(), flow.name(), request.trigger(), request.scheduledAt(),
                    text(request.input()), pod, started);
            listener.started(flow.name(), request.runId(), request.scheduledAt() == null ? Duration.ZERO
                    : Duration.between(request.scheduledAt(), started));
            RunOutcome outcome = RunOutcome.FAILED;
            try {
                outcome = execute(flow, request, record);
            } finally {
                listener.finished(flow.name(), request.runId(), outcome);
            }
            return outcome;
        } finally {
            if (held) {
                flows.release(flow.name(), request.runId());
            }
        }
    }

    private RunOutcome execute(Flow flow, RunRequest request, RunRecord record) {
        ObjectNode run = json.createObjectNode();
        run.put("id", request.runId());
        run.put("flow", flow.name());
        run.put("trigger", request.trigger());
        run.put("scheduledAt", request.scheduledAt() == null ? null : request.scheduledAt().toString());
        Bindings bindings = Bindings.of(json.createObjectNode(), request.input(), previous(flow.name()), run);
        AttemptListener history = a -> runs.addStep(record.seq(), flow.name(), a.stepId(), a.kind(), a.phase(),
                a.attempt(), a.status(), a.startedAt(), a.finishedAt(), a.httpStatus(), text(a.output()), a.error());
        RunOutcome outcome = RunOutcome.SUCCEEDED;
        String error = null;
        try {
            for (Step step : flow.steps()) {
                StepResult result = steps.run(step, "steps", bindings, history);
                if (result.outcome() == StepResult.Outcome.SUCCEEDED) {
                    bindings.outputs().set(step.id(), result.output());
                    continue;
                }
                if (result.outcome() == StepResult.Outcome.CONDITION_FALSE) {
                    bindings.outputs().set(step.id(), result.output());
                    outcome = RunOutcome.SKIPPED;
                    error = "condition " + step.id() + " was false";
                    break;
                }
                outcome = RunOutcome.FAILED;
                error = "step " + step.id() + ": " + result.error();
                ObjectNode why = json.createObjectNode();
                why.put("step", step.id());
                why.put("message", result.error());
                Bindings failing = bindings.withError(why);
                for (Step handler : flow.onFailure()) {
                    StepResult handled = steps.run(handler, "onFailure", failing, history);
                    if (handled.outcome() == StepResult.Outcome.SUCCEEDED) {
                        failing.outputs().set(handler.id(), handled.output());
                    }
                }
                break;
            }
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "Run " + request.runId() + " of flow " + flow.name() + " failed: " + e);
            outcome = RunOutcome.FAILED;
            error = "internal error: " + e.getClass().getSimpleName();
        }
        runs.finish(request.runId(), outcome.status(), error, clock.instant());
        if (outcome != RunOutcome.FAILED) {
            flows.setPreviousOutputs(flow.name(), bounded(bindings.outputs()));
        }
        return outcome;
    }

    private JsonNode previous(String flow) {
        String text = flows.previousOutputs(flow);
        if (text == null) {
            return json.createObjectNode();
        }
        try {
            return json.readTree(text);
        } catch (JsonProcessingException e) {
            return json.createObjectNode();
        }
    }

    /** The outputs as JSON text, leaving out the largest ones until it fits the bound. */
    private String bounded(ObjectNode outputs) {
        ObjectNode kept = outputs.deepCopy();
        String text = objectText(kept);
        while (text.length() > previousMax && !kept.isEmpty()) {
            String largest = null;
            int size = -1;
            for (Iterator<Map.Entry<String, JsonNode>> it = kept.properties().iterator(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                int s = String.valueOf(text(e.getValue())).length();
                if (s > size) {
                    size = s;
                    largest = e.getKey();
                }
            }
            kept.remove(largest);
            text = objectText(kept);
        }
        return text;
    }

    // an object of JSON values always writes; "{}" (nothing kept) should it fail all the same
    private String objectText(ObjectNode node) {
        String text = text(node);
        return text == null ? "{}" : text;
    }

    private @Nullable String text(@Nullable JsonNode node) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            return null;
        }
        try {
            return json.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            return null;
        }
    }
}
