package io.pylon.integration.step;

import org.jspecify.annotations.Nullable;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * What expressions of one run read: the earlier steps' outputs by id (the document), {@code $input},
 * {@code $previous}, {@code $run} and, in onFailure steps, {@code $error}. Owned by one run's thread.
 *
 * @param outputs  step outputs by id, in order; the run adds each step's output
 * @param input    the run's input (null node when none)
 * @param previous the step outputs of the flow's previous finished run (empty object when none)
 * @param run      {@code {id, flow, trigger, scheduledAt}}
 * @param error    {@code {step, message}} in onFailure steps, else null node
 */
public record Bindings(ObjectNode outputs, JsonNode input, JsonNode previous, JsonNode run, JsonNode error) {
    public Bindings {
        input = input == null ? NullNode.instance : input;
        error = error == null ? NullNode.instance : error;
    }

    /** The bindings of a run's steps (no {@code $error}); {@code input} null when the run has none. */
    public static Bindings of(ObjectNode outputs, @Nullable JsonNode input, JsonNode previous, JsonNode run) {
        return new Bindings(outputs, input == null ? NullNode.instance : input, previous, run, NullNode.instance);
    }

    public Bindings withError(JsonNode error) {
        return new Bindings(outputs, input, previous, run, error);
    }
}
