package io.pylon.integration.flow;

import java.time.Instant;
import java.time.ZoneId;
import java.util.Optional;

/**
 * A flow's cron schedule.
 *
 * @param cron    the Quartz expression as written
 * @param zone    the time zone it is read in
 * @param misfire what happens to instants missed while no pod ran the flow
 */
public record FlowSchedule(QuartzCron cron, ZoneId zone, Misfire misfire) {

    /** The first instant of the schedule strictly after {@code after}; empty when there is none (a past year). */
    public Optional<Instant> next(Instant after) {
        return cron.next(after, zone);
    }

    /** Instants missed while no pod ran the flow. */
    public enum Misfire {
        /** every missed instant runs, oldest first */
        RUN_ALL("run-all"),
        /** one run stands for all missed instants */
        RUN_ONCE("run-once"),
        /** missed instants do not run; the next future one does */
        SKIP("skip");

        private final String text;

        Misfire(String text) {
            this.text = text;
        }

        public String text() {
            return text;
        }

        static Misfire of(String text) {
            for (Misfire m : values()) {
                if (m.text.equals(text)) {
                    return m;
                }
            }
            throw new IllegalArgumentException(text);
        }
    }
}
