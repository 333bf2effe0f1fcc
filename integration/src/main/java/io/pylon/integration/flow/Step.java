package io.pylon.integration.flow;

/**
 * One step of a flow.
 *
 * @param id    how later steps name its output
 * @param spec  what it does
 * @param retry how often it is attempted
 */
public record Step(String id, StepSpec spec, RetrySpec retry) {
}
