package io.pylon.integration.store;

import java.time.Instant;

/**
 * One step attempt as history keeps it.
 *
 * @param output      the output as JSON text, cut to the history bound when {@code truncated}
 * @param outputBytes the size of the whole output in bytes (UTF-8)
 */
public record StepRecord(long seq, String stepId, String kind, String phase, int attempt, String status,
                         Instant startedAt, Instant finishedAt, Integer httpStatus, String output, int outputBytes,
                         boolean truncated, String error) {
}
