package io.pylon.integration.store;

import org.jspecify.annotations.Nullable;

import java.time.Instant;

/**
 * One step attempt as history keeps it.
 *
 * @param output      the output as JSON text, cut to the history bound when {@code truncated}
 * @param outputBytes the size of the whole output in bytes (UTF-8)
 */
public record StepRecord(long seq, String stepId, String kind, String phase, int attempt, String status,
                         Instant startedAt, Instant finishedAt, @Nullable Integer httpStatus, @Nullable String output,
                         int outputBytes, boolean truncated, @Nullable String error) {
}
