package io.pylon.integration.step;

import org.jspecify.annotations.Nullable;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * How a step ended after its attempts.
 *
 * @param output the last output (null node when failed)
 * @param error  the last attempt's error, or null
 */
public record StepResult(Outcome outcome, JsonNode output, @Nullable String error) {
    public enum Outcome {
        SUCCEEDED, CONDITION_FALSE, FAILED
    }
}
