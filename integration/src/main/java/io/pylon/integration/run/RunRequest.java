package io.pylon.integration.run;

import org.jspecify.annotations.Nullable;

import com.fasterxml.jackson.databind.JsonNode;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.UUID;

/**
 * One run to execute.
 *
 * @param runId       stable across a pod's death: a scheduled run's id derives from its flow and instant
 * @param trigger     {@code schedule}, {@code http} or {@code manual}
 * @param scheduledAt when it was due (the cron instant, or when it was requested)
 * @param input       the run's input, or null
 */
public record RunRequest(String runId, String trigger, Instant scheduledAt, @Nullable JsonNode input) {

    /** The id of the run of {@code flow} due at {@code instant}: the same on every pod and every attempt. */
    public static String scheduledRunId(String flow, Instant instant) {
        return UUID.nameUUIDFromBytes((flow + "|" + instant.toEpochMilli()).getBytes(StandardCharsets.UTF_8)).toString();
    }
}
