package io.pylon.integration.store;

import org.jspecify.annotations.Nullable;

import java.time.Instant;

/**
 * One run as history keeps it.
 *
 * @param seq      its place in the history (keyset paging: {@code before=<seq>})
 * @param trigger  {@code schedule}, {@code http} or {@code manual}
 * @param status   {@code queued}, {@code running}, {@code succeeded}, {@code failed} or {@code skipped}
 * @param attempts how many times a pod started it (more than 1 after a pod died mid-run)
 * @param input    the run's input as JSON text, cut to the history bound
 */
public record RunRecord(long seq, String id, String flow, String trigger, String status, Instant createdAt,
                        @Nullable Instant scheduledAt, @Nullable Instant startedAt, @Nullable Instant finishedAt,
                        @Nullable String pod, int attempts, @Nullable String input, @Nullable String error) {

    public boolean finished() {
        return status.equals("succeeded") || status.equals("failed") || status.equals("skipped");
    }
}
