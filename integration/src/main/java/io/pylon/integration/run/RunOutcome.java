package io.pylon.integration.run;

/** How a run attempt ended. */
public enum RunOutcome {
    SUCCEEDED("succeeded"),
    FAILED("failed"),
    /** a condition was false */
    SKIPPED("skipped"),
    /** a {@code forbid} flow's other run holds it: nothing ran, try again later */
    BUSY("busy");

    private final String status;

    RunOutcome(String status) {
        this.status = status;
    }

    /** The status history records. */
    public String status() {
        return status;
    }
}
