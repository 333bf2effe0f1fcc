package io.pylon.integration.flow;

import java.util.List;

/**
 * A parsed, valid flow document: what the scheduler and the runner read. Immutable.
 *
 * @param name        the flow's name (unique)
 * @param trigger     when runs start
 * @param concurrency whether runs may overlap
 * @param steps       run in order
 * @param onFailure   run after a step failed
 */
public record Flow(String name, Trigger trigger, Concurrency concurrency, List<Step> steps, List<Step> onFailure) {
    public Flow {
        steps = List.copyOf(steps);
        onFailure = List.copyOf(onFailure);
    }

    /** Whether runs may overlap ({@code allow}) or wait for the previous one ({@code forbid}). */
    public enum Concurrency {
        FORBID, ALLOW
    }
}
