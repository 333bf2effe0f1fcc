package io.pylon.integration.flow;

/**
 * One thing wrong with a flow document.
 *
 * @param at      where: {@code steps[1] (shape).http.method}, or {@code document}
 * @param message what is wrong
 */
public record FlowProblem(String at, String message) {
    @Override
    public String toString() {
        return at + ": " + message;
    }
}
