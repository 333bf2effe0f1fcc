package io.pylon.integration.step;

import org.jspecify.annotations.Nullable;

import com.fasterxml.jackson.databind.JsonNode;

import java.time.Instant;

/**
 * One attempt of one step, as history records it.
 *
 * @param phase      {@code steps} or {@code onFailure}
 * @param status     {@code succeeded}, {@code failed}, or {@code false} (a condition that ended the run)
 * @param httpStatus the response's status, or null
 * @param output     the step's output (null node when it failed)
 * @param error      why it failed, or null
 */
public record StepAttempt(String stepId, String kind, String phase, int attempt, Instant startedAt, Instant finishedAt,
                          String status, @Nullable Integer httpStatus, JsonNode output, @Nullable String error) {
}
