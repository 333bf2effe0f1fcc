package io.pylon.core.diagnostics;

/**
 * A section could not be collected. The message names the section and the exception type only: messages of the
 * cause may carry paths, addresses or secrets.
 */
public final class SectionFailedException extends RuntimeException {
    private final String section;

    SectionFailedException(String section, Throwable cause) {
        super("The " + section + " section failed (" + cause.getClass().getSimpleName() + ").", cause);
        this.section = section;
    }

    public String section() {
        return section;
    }
}
