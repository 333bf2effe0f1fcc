package io.pylon.integration.run;

import java.time.Duration;

/** Hears of runs starting and ending on this pod (meters, waiting callers); called on the run's thread. */
public interface RunListener {
    void started(String flow, String runId, Duration startDelay);

    void finished(String flow, String runId, RunOutcome outcome);

    RunListener NONE = new RunListener() {
        @Override
        public void started(String flow, String runId, Duration startDelay) {
        }

        @Override
        public void finished(String flow, String runId, RunOutcome outcome) {
        }
    };
}
