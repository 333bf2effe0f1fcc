package io.pylon.core.diagnostics;

/** A diagnostics query parameter out of its bounds or of the wrong form: answered 400 naming the parameter. */
public final class InvalidParameterException extends RuntimeException {
    private final String parameter;

    public InvalidParameterException(String parameter, String message) {
        super(message);
        this.parameter = parameter;
    }

    public String parameter() {
        return parameter;
    }
}
