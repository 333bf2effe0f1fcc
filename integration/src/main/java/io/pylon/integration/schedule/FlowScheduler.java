package io.pylon.integration.schedule;

import org.jspecify.annotations.Nullable;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.kagkarlsson.scheduler.Scheduler;
import com.github.kagkarlsson.scheduler.SchedulerName;
import com.github.kagkarlsson.scheduler.ScheduledExecution;
import com.github.kagkarlsson.scheduler.jdbc.AutodetectJdbcCustomization;
import com.github.kagkarlsson.scheduler.jdbc.DefaultJdbcCustomization;
import com.github.kagkarlsson.scheduler.serializer.JacksonSerializer;
import com.github.kagkarlsson.scheduler.task.CompletionHandler;
import com.github.kagkarlsson.scheduler.task.ExecutionContext;
import com.github.kagkarlsson.scheduler.task.TaskInstance;
import com.github.kagkarlsson.scheduler.task.TaskInstanceId;
import com.github.kagkarlsson.scheduler.task.helper.CustomTask;
import com.github.kagkarlsson.scheduler.task.helper.RecurringTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import com.github.kagkarlsson.scheduler.task.schedule.FixedDelay;
import io.pylon.integration.flow.Flow;
import io.pylon.integration.flow.FlowSchedule;
import io.pylon.integration.run.FlowRunner;
import io.pylon.integration.run.RunOutcome;
import io.pylon.integration.run.RunRequest;
import io.pylon.integration.store.RunStore;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;

/**
 * Runs flows on db-scheduler over the shared database, so that any number of Integration pods agree on who runs
 * what: each due execution is picked by exactly one pod (an optimistic update of its row), a picking pod marks it
 * alive with heartbeats, and once those lapse (the pod died) another pod picks it up again: runs are
 * at-least-once. A flow with a schedule has one {@code flow-tick} execution whose data is the cron instant it
 * stands for; executing it runs the flow inline ({@code forbid}: never two at once) or queues a {@code flow-run}
 * ({@code allow}), then moves it to the next instant after the one it stood for, so instants missed while no pod
 * ran are caught up ({@code run-all}), or by one run ({@code run-once}), or skipped ({@code skip}). Requested runs
 * (HTTP, run now) are {@code flow-run} executions. Thread-safe: db-scheduler's client is; runs execute on virtual
 * threads, at most {@link SchedulerOptions#threads()} at once.
 */
public final class FlowScheduler implements AutoCloseable {
    public static final String TICK = "flow-tick";
    public static final String RUN = "flow-run";
    static final String TABLE = "integration_scheduled_tasks";
    /** A cron instant whose execution starts later than this counts as missed (for {@code skip} and {@code run-once}). */
    static final Duration MISSED_AFTER = Duration.ofMinutes(1);
    /** How long a run of a held {@code forbid} flow waits before it tries again. */
    static final Duration BUSY_RETRY = Duration.ofSeconds(1);
    private static final System.Logger LOG = System.getLogger(FlowScheduler.class.getName());

    private final DataSource dataSource;
    private final FlowCatalog catalog;
    private final FlowRunner runner;
    private final RunStore runs;
    private final ObjectMapper json;
    private final Clock clock;
    private final Duration lead;
    private final CustomTask<TickData> tick;
    private final CustomTask<RunData> run;
    private final Scheduler scheduler;

    /** @param product the database's product, {@code h2} or {@code postgresql} ({@link io.pylon.integration.store.IntegrationDatabase#product()}) */
    public FlowScheduler(DataSource dataSource, String product, FlowCatalog catalog, FlowRunner runner, RunStore runs, ObjectMapper json,
                         Clock clock, SchedulerOptions options, Runnable prune, Duration pruneEvery) {
        this.dataSource = dataSource;
        this.catalog = catalog;
        this.runner = runner;
        this.runs = runs;
        this.json = json;
        this.clock = clock;
        this.lead = options.scheduleLead();
        this.tick = Tasks.custom(TICK, TickData.class)
                .onDeadExecutionRevive()
                .onFailure((complete, ops) -> ops.reschedule(complete, clock.instant().plusSeconds(10)))
                .execute(this::tick);
        this.run = Tasks.custom(RUN, RunData.class)
                .onDeadExecutionRevive()
                .onFailure((complete, ops) -> ops.reschedule(complete, clock.instant().plusSeconds(10)))
                .execute(this::requested);
        RecurringTask<Void> pruning = Tasks.recurring("history-prune", FixedDelay.of(pruneEvery))
                .execute((instance, ctx) -> prune.run());
        this.scheduler = Scheduler.create(dataSource, List.of(tick, run))
                .startTasks(pruning)
                .tableName(TABLE)
                // db-scheduler has no customization of its own for H2 and warns on every start that it assumes time
                // columns keep their zone: ours are TIMESTAMP WITH TIME ZONE (db/integration/h2), so they do
                .jdbcCustomization(product.equals("h2") ? new DefaultJdbcCustomization(false)
                        : new AutodetectJdbcCustomization(dataSource))
                .schedulerName(new SchedulerName.Fixed(options.podName()))
                .serializer(new JacksonSerializer())
                .threads(options.threads())
                .executorService(Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("integration-run-", 0).factory()))
                .pollingInterval(options.pollingInterval())
                .heartbeatInterval(options.heartbeatInterval())
                .missedHeartbeatsLimit(options.missedHeartbeats())
                .enableImmediateExecution()
                .shutdownMaxWait(Duration.ofSeconds(5))
                .build();
    }

    public void start() {
        scheduler.start();
    }

    /** Brings a flow's schedule in line with its stored version: after a create, a change or a delete. */
    public void apply(String name) {
        TaskInstanceId id = TaskInstanceId.of(TICK, name);
        FlowCatalog.Parsed current = catalog.current(name);
        FlowSchedule schedule = current == null ? null : current.schedule();
        Optional<ScheduledExecution<Object>> existing = scheduler.getScheduledExecution(id);
        if (current == null || schedule == null) {
            if (existing.isPresent() && !existing.get().isPicked()) {
                try {
                    scheduler.cancel(id);
                } catch (RuntimeException e) {
                    // picked meanwhile: the execution sees the flow gone or unscheduled and removes itself
                }
            }
            return;
        }
        Optional<Instant> next = schedule.next(clock.instant());
        if (next.isEmpty()) {
            return;
        }
        TickData data = new TickData(name, current.version(), next.get().toEpochMilli());
        if (existing.isEmpty()) {
            scheduler.scheduleIfNotExists(tick.instance(name, data), next.get().minus(lead));
        } else if (!existing.get().isPicked()) {
            try {
                scheduler.reschedule(id, next.get().minus(lead), data);
            } catch (RuntimeException e) {
                // picked meanwhile: the execution sees the new version and moves itself
            }
        }
    }

    /** Queues a run to start at once on whichever pod picks it first (this one, when it has a free thread). */
    public void request(String flow, String runId, String trigger, Instant requestedAt, @Nullable JsonNode input) {
        String text = null;
        if (input != null && !input.isNull()) {
            try {
                text = json.writeValueAsString(input);
            } catch (JsonProcessingException e) {
                throw new IllegalArgumentException(e);
            }
        }
        scheduler.schedule(run.instance(runId, new RunData(flow, runId, trigger, requestedAt.toEpochMilli(), text)),
                requestedAt);
    }

    /** Executions due now and not yet picked, and those due for longer than {@code late}: one query, every pod's. */
    public long[] dueAndOverdue(Duration late) {
        Instant now = clock.instant();
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT COUNT(*), SUM(CASE WHEN execution_time <= ? THEN 1 ELSE 0 END) "
                     + "FROM " + TABLE + " WHERE picked = FALSE AND execution_time <= ? AND task_name IN (?, ?)")) {
            ps.setTimestamp(1, Timestamp.from(now.minus(late)));
            ps.setTimestamp(2, Timestamp.from(now));
            ps.setString(3, TICK);
            ps.setString(4, RUN);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return new long[]{rs.getLong(1), rs.getLong(2)};
            }
        } catch (SQLException e) {
            return new long[]{-1, -1};
        }
    }

    /** How many executions this pod is running now. */
    public int executing() {
        return scheduler.getCurrentlyExecuting().size();
    }

    private CompletionHandler<TickData> tick(TaskInstance<TickData> instance, ExecutionContext ctx) {
        TickData data = instance.getData();
        if (!waitUntil(Instant.ofEpochMilli(data.instant()))) { // the pod is stopping: another pod takes the instant
            return (complete, ops) -> ops.reschedule(complete, Instant.ofEpochMilli(data.instant()).minus(lead), data);
        }
        Instant now = clock.instant();
        FlowCatalog.Parsed current = catalog.current(data.flow());
        FlowSchedule schedule = current == null ? null : current.schedule();
        if (current == null || schedule == null) {
            return (complete, ops) -> ops.remove();
        }
        if (current.version() != data.version()) {
            return moveTo(schedule.next(now), current.version());
        }
        Instant instant = Instant.ofEpochMilli(data.instant());
        boolean missed = Duration.between(instant, now).compareTo(MISSED_AFTER) > 0;
        if (missed && schedule.misfire() == FlowSchedule.Misfire.SKIP) {
            LOG.log(System.Logger.Level.INFO, "Flow " + data.flow() + ": instant " + instant + " was missed; skipped as its misfire policy says");
            return moveTo(schedule.next(now), data.version());
        }
        Flow flow = current.flow();
        String runId = RunRequest.scheduledRunId(flow.name(), instant);
        if (flow.concurrency() == Flow.Concurrency.FORBID) {
            RunOutcome outcome = runner.run(flow, new RunRequest(runId, "schedule", instant, null));
            if (outcome == RunOutcome.BUSY) {
                return (complete, ops) -> ops.reschedule(complete, clock.instant().plus(BUSY_RETRY), data);
            }
        } else {
            scheduler.scheduleIfNotExists(run.instance(runId, new RunData(flow.name(), runId, "schedule",
                    instant.toEpochMilli(), null)), now);
        }
        Instant after = missed && schedule.misfire() == FlowSchedule.Misfire.RUN_ONCE ? clock.instant() : instant;
        return moveTo(schedule.next(after), data.version());
    }

    private CompletionHandler<TickData> moveTo(Optional<Instant> next, long version) {
        return (complete, ops) -> {
            if (next.isEmpty()) {
                ops.remove();
                return;
            }
            String flow = ((TickData) complete.getExecution().taskInstance.getData()).flow();
            ops.reschedule(complete, next.get().minus(lead), new TickData(flow, version, next.get().toEpochMilli()));
        };
    }

    /**
     * A tick is picked up to {@link #lead} before its instant, so that the time a pod takes to see and pick it (the
     * polling interval, the pick's update, a busy machine) passes before the instant rather than after it; its
     * (virtual) thread then waits for the instant. Never longer than the lead: a clock that jumped does not hold it.
     *
     * @return false when the wait was interrupted (the pod is stopping)
     */
    private boolean waitUntil(Instant instant) {
        Duration left = Duration.between(clock.instant(), instant);
        if (left.isNegative() || left.isZero()) {
            return true;
        }
        try {
            Thread.sleep(left.compareTo(lead) > 0 ? lead : left);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private CompletionHandler<RunData> requested(TaskInstance<RunData> instance, ExecutionContext ctx) {
        RunData data = instance.getData();
        FlowCatalog.Parsed current = catalog.current(data.flow());
        Instant scheduledAt = Instant.ofEpochMilli(data.scheduledAt());
        if (current == null) {
            runs.skip(data.runId(), data.flow(), data.trigger(), scheduledAt, "the flow was deleted", clock.instant());
            return (complete, ops) -> ops.remove();
        }
        JsonNode input = null;
        if (data.input() != null) {
            try {
                input = json.readTree(data.input());
            } catch (JsonProcessingException e) {
                input = null;
            }
        }
        RunOutcome outcome = runner.run(current.flow(), new RunRequest(data.runId(), data.trigger(), scheduledAt, input));
        if (outcome == RunOutcome.BUSY) {
            return (complete, ops) -> ops.reschedule(complete, clock.instant().plus(BUSY_RETRY));
        }
        return (complete, ops) -> ops.remove();
    }

    @Override
    public void close() {
        scheduler.stop();
    }
}
