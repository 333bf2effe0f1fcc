package io.pylon.integration.flow;

import java.time.Duration;

/**
 * How often a step is attempted and how long it waits in between: exponential backoff from {@code initialDelay},
 * times {@code multiplier} per attempt, at most {@code maxDelay}, each delay varied at random by {@code jitter}.
 *
 * @param nonIdempotent whether a POST, PATCH or webhook is retried too
 */
public record RetrySpec(int maxAttempts, Duration initialDelay, double multiplier, Duration maxDelay, double jitter,
                        boolean nonIdempotent) {
    public static final RetrySpec ONCE = new RetrySpec(1, Duration.ofSeconds(1), 2, Duration.ofSeconds(30), 0.2, false);
}
