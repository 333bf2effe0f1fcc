package io.pylon.core.broadcast;

/** What one pod contributes to the aggregate: its answer's bytes, or why there is none. */
record PodResult(byte[] answer, PodFailure failure) {

    static PodResult answered(byte[] answer) {
        return new PodResult(answer, null);
    }

    static PodResult failed(PodFailure failure) {
        return new PodResult(null, failure);
    }
}
