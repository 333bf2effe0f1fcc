package io.pylon.core.broadcast;

/** A pod gave no usable answer; carries the element the aggregate lists for it. */
public final class PodFailedException extends Exception {
    private final transient PodFailure failure;

    public PodFailedException(PodFailure failure) {
        super(failure.message(), null, false, false);
        this.failure = failure;
    }

    public PodFailure failure() {
        return failure;
    }
}
