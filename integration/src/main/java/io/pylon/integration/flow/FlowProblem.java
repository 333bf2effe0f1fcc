package io.pylon.integration.flow;

/**
 * One thing wrong with a flow document.
 *
 * @param at      where: {@code steps[1] (shape).http.method}, or {@code document}
 * @param message what is wrong
 */
public record FlowProblem(String at, String message) {

    /** The message of a parser's refusal, which names the problem. */
    static String reason(RuntimeException e) {
        return java.util.Objects.requireNonNullElse(e.getMessage(), e.getClass().getSimpleName());
    }
    @Override
    public String toString() {
        return at + ": " + message;
    }
}
