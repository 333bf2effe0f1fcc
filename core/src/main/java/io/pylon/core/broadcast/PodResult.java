package io.pylon.core.broadcast;

import org.jspecify.annotations.Nullable;

import java.util.Objects;

/** What one pod contributes to the aggregate: its answer's bytes, or why there is none. */
record PodResult(byte @Nullable [] answer, @Nullable PodFailure failure) {

    static PodResult answered(byte[] answer) {
        return new PodResult(answer, null);
    }

    /** The failure of a result that has no answer (every such result has one, by construction). */
    PodFailure failureOfUnanswered() {
        return Objects.requireNonNull(failure, "a result without an answer has a failure");
    }

    static PodResult failed(PodFailure failure) {
        return new PodResult(null, failure);
    }
}
