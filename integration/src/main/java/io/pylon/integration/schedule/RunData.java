package io.pylon.integration.schedule;

import org.jspecify.annotations.Nullable;

/**
 * The data of one requested run in the scheduler's table (JSON), so that a pod that picks it up after another died
 * has the run's input.
 *
 * @param scheduledAt epoch milliseconds
 * @param input       the run's input as JSON text, or null
 */
public record RunData(String flow, String runId, String trigger, long scheduledAt, @Nullable String input) {
}
