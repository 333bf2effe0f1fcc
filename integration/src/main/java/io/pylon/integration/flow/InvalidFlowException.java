package io.pylon.integration.flow;

import java.util.List;
import java.util.stream.Collectors;

/** A flow document that cannot be run, with every problem found, each naming the step and field. */
public final class InvalidFlowException extends Exception {
    private final transient List<FlowProblem> problems;

    public InvalidFlowException(List<FlowProblem> problems) {
        super(problems.stream().map(FlowProblem::toString).collect(Collectors.joining("; ")));
        this.problems = List.copyOf(problems);
    }

    public InvalidFlowException(String at, String message) {
        this(List.of(new FlowProblem(at, message)));
    }

    public List<FlowProblem> problems() {
        return problems;
    }
}
