package io.pylon.integration.flow;

import com.cronutils.model.Cron;
import com.cronutils.model.CronType;
import com.cronutils.model.definition.CronDefinitionBuilder;
import com.cronutils.model.time.ExecutionTime;
import com.cronutils.parser.CronParser;

import java.time.Instant;
import java.time.ZoneId;
import java.time.temporal.ChronoUnit;
import java.util.Optional;

/**
 * A Quartz cron expression (seconds, minutes, hours, day of month, month, day of week, optional year), so that
 * expressions written for Quartz-based schedulers carry over. Immutable and thread-safe.
 */
public final class QuartzCron {
    private static final CronParser PARSER = new CronParser(CronDefinitionBuilder.instanceDefinitionFor(CronType.QUARTZ));

    private final String expression;
    private final ExecutionTime executionTime;

    private QuartzCron(String expression, ExecutionTime executionTime) {
        this.expression = expression;
        this.executionTime = executionTime;
    }

    /** @throws IllegalArgumentException naming what is wrong with the expression */
    public static QuartzCron parse(String expression) {
        try {
            Cron cron = PARSER.parse(expression).validate();
            return new QuartzCron(expression, ExecutionTime.forCron(cron));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(e.getMessage() == null ? "not a Quartz cron expression" : e.getMessage());
        }
    }

    /** The first instant strictly after {@code after}, read in {@code zone}. */
    public Optional<Instant> next(Instant after, ZoneId zone) {
        // whole seconds: cron-utils keeps the fraction of the instant it starts from
        return executionTime.nextExecution(after.truncatedTo(ChronoUnit.SECONDS).atZone(zone))
                .map(z -> z.toInstant().truncatedTo(ChronoUnit.SECONDS));
    }

    public String expression() {
        return expression;
    }

    @Override
    public String toString() {
        return expression;
    }
}
