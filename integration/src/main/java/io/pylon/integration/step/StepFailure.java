package io.pylon.integration.step;

/**
 * One failed attempt of a step.
 *
 * @see #retryable()
 */
public final class StepFailure extends RuntimeException {
    private final boolean retryable;
    private final Integer httpStatus;

    public StepFailure(String message, boolean retryable, Integer httpStatus) {
        super(message, null, false, false);
        this.retryable = retryable;
        this.httpStatus = httpStatus;
    }

    /** Whether another attempt might succeed (a timeout, a 5xx), as opposed to a refusal or a bad expression. */
    public boolean retryable() {
        return retryable;
    }

    /** The response status, when the step got one. */
    public Integer httpStatus() {
        return httpStatus;
    }
}
