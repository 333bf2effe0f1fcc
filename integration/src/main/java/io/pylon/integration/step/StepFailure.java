package io.pylon.integration.step;

import org.jspecify.annotations.Nullable;

/**
 * One failed attempt of a step.
 *
 * @see #retryable()
 */
public final class StepFailure extends RuntimeException {
    private final boolean retryable;
    private final @Nullable Integer httpStatus;

    public StepFailure(String message, boolean retryable, @Nullable Integer httpStatus) {
        super(message, null, false, false);
        this.retryable = retryable;
        this.httpStatus = httpStatus;
    }

    /** Whether another attempt might succeed (a timeout, a 5xx), as opposed to a refusal or a bad expression. */
    public boolean retryable() {
        return retryable;
    }

    /** The response status, when the step got one. */
    public @Nullable Integer httpStatus() {
        return httpStatus;
    }

    /** The message it was built with (never null, unlike a throwable's in general). */
    @Override
    public String getMessage() {
        return java.util.Objects.requireNonNull(super.getMessage());
    }
}
