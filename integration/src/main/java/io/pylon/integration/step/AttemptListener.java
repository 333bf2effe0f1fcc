package io.pylon.integration.step;

/** Hears of every step attempt as it ends (the run's history); called on the run's thread. */
@FunctionalInterface
public interface AttemptListener {
    void attempt(StepAttempt attempt);
}
