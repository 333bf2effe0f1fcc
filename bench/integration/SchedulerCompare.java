import com.github.kagkarlsson.scheduler.Scheduler;
import com.github.kagkarlsson.scheduler.SchedulerName;
import com.github.kagkarlsson.scheduler.task.helper.CustomTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.quartz.CronScheduleBuilder;
import org.quartz.Job;
import org.quartz.JobBuilder;
import org.quartz.JobExecutionContext;
import org.quartz.TriggerBuilder;
import org.quartz.impl.SchedulerRepository;
import org.quartz.impl.StdSchedulerFactory;
import org.quartz.utils.ConnectionProvider;
import org.quartz.utils.DBConnectionManager;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * db-scheduler beside Quartz's clustered JDBC job store, in one run on the same embedded H2 (two replicas per
 * engine, each with its own connection pool, on one database): JOBS jobs due every second for SECONDS, then both
 * replicas stopped for DOWNTIME seconds and two new ones started. Reports, per engine, the runs of each due instant
 * (missing, and more than once: a duplicate fire across replicas), the start delay after the due instant, and how
 * many of the instants missed during the downtime ran after it. db-scheduler runs as Pylon's Integration pods use it
 * (a custom task per schedule that moves to the instant after the one it stood for: the run-all misfire policy;
 * polling 250 ms, heartbeat 5 s), but picked at the instant, without the pods' schedule lead: the engines' own delay; Quartz with its defaults for a cron trigger (smart policy: fire once now, misfire
 * threshold 60 s) and a cluster check-in of 5 s, like db-scheduler's heartbeat. Both 10 threads a replica.
 * Usage: java -cp <pylon lib>:<quartz jar>:<classes> SchedulerCompare WORKDIR JOBS SECONDS DOWNTIME
 */
public final class SchedulerCompare {
    /** due instant (job@epoch ms) -> how often it ran; start delays in ms. Shared by both replicas (one JVM). */
    static final Map<String, AtomicInteger> RUNS = new ConcurrentHashMap<>();
    static final List<Long> DELAYS = Collections.synchronizedList(new ArrayList<>());
    static volatile long measureFrom;
    static volatile long measureTo;

    interface Replica extends AutoCloseable {
        @Override
        void close() throws Exception;
    }

    interface Engine {
        String name();

        void createSchema(HikariDataSource ds) throws Exception;

        void scheduleJobs(Replica first, int jobs) throws Exception;

        Replica start(String url, int n) throws Exception;
    }

    static void record(String job, long dueMillis) {
        long now = System.currentTimeMillis();
        RUNS.computeIfAbsent(job + "@" + dueMillis, k -> new AtomicInteger()).incrementAndGet();
        if (dueMillis >= measureFrom && dueMillis < measureTo) {
            DELAYS.add(now - dueMillis);
        }
    }

    /** Whether the engines run on PostgreSQL (a fifth argument, its JDBC URL) rather than on an embedded H2. */
    static boolean postgres;

    static HikariDataSource pool(String url, String name) {
        HikariConfig config = new HikariConfig();
        config.setPoolName(name);
        config.setJdbcUrl(url);
        config.setUsername(postgres ? "postgres" : "bench");
        config.setPassword("");
        config.setMaximumPoolSize(10);
        config.setMinimumIdle(2);
        return new HikariDataSource(config);
    }

    // ---- db-scheduler, as FlowScheduler uses it ----
    static final class DbScheduler implements Engine {
        final CustomTask<String> tick = Tasks.custom("flow-tick", String.class)
                .onDeadExecutionRevive()
                .execute((instance, ctx) -> {
                    String[] data = instance.getData().split("\\|");
                    long due = Long.parseLong(data[1]);
                    record(data[0], due);
                    long next = due + 1000; // "* * * * * ?": the instant after the one it stood for
                    return (complete, ops) -> ops.reschedule(complete, Instant.ofEpochMilli(next), data[0] + "|" + next);
                });

        public String name() {
            return "db-scheduler 16.7.1";
        }

        public void createSchema(HikariDataSource ds) throws Exception {
            try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
                s.execute("""
                        CREATE TABLE integration_scheduled_tasks (
                            task_name VARCHAR(100) NOT NULL, task_instance VARCHAR(200) NOT NULL, task_data %s,
                            execution_time TIMESTAMP WITH TIME ZONE NOT NULL, picked BOOLEAN NOT NULL,
                            picked_by VARCHAR(253), last_success TIMESTAMP WITH TIME ZONE,
                            last_failure TIMESTAMP WITH TIME ZONE, consecutive_failures INT,
                            last_heartbeat TIMESTAMP WITH TIME ZONE, version BIGINT NOT NULL, priority SMALLINT,
                            PRIMARY KEY (task_name, task_instance))""".formatted(postgres ? "BYTEA" : "BLOB"));
                s.execute("CREATE INDEX t_execution_time ON integration_scheduled_tasks (execution_time)");
                s.execute("CREATE INDEX t_last_heartbeat ON integration_scheduled_tasks (last_heartbeat)");
                s.execute("CREATE INDEX t_priority_time ON integration_scheduled_tasks (priority DESC, execution_time ASC)");
            }
        }

        public void scheduleJobs(Replica first, int jobs) {
            Scheduler scheduler = ((DbReplica) first).scheduler;
            long next = (System.currentTimeMillis() / 1000 + 1) * 1000;
            for (int i = 0; i < jobs; i++) {
                scheduler.scheduleIfNotExists(tick.instance("job-" + i, "job-" + i + "|" + next), Instant.ofEpochMilli(next));
            }
        }

        record DbReplica(Scheduler scheduler, HikariDataSource ds) implements Replica {
            public void close() {
                scheduler.stop();
                ds.close();
            }
        }

        public Replica start(String url, int n) {
            HikariDataSource ds = pool(url, "db-scheduler-" + n);
            Scheduler scheduler = Scheduler.create(ds, List.of(tick))
                    .tableName("integration_scheduled_tasks")
                    .schedulerName(new SchedulerName.Fixed("replica-" + n))
                    .threads(10)
                    .pollingInterval(Duration.ofMillis(250))
                    .heartbeatInterval(Duration.ofSeconds(5))
                    .missedHeartbeatsLimit(4)
                    .enableImmediateExecution()
                    .shutdownMaxWait(Duration.ofSeconds(1))
                    .build();
            scheduler.start();
            return new DbReplica(scheduler, ds);
        }
    }

    // ---- Quartz, clustered JDBC job store ----
    public static final class QuartzJob implements Job {
        @Override
        public void execute(JobExecutionContext context) {
            record(context.getJobDetail().getKey().getName(), context.getScheduledFireTime().getTime());
        }
    }

    static final class Quartz implements Engine {
        public String name() {
            return "Quartz 2.5.2 (JobStoreTX, clustered)";
        }

        public void createSchema(HikariDataSource ds) throws Exception {
            String ddl;
            try (InputStream in = StdSchedulerFactory.class.getResourceAsStream("/org/quartz/impl/jdbcjobstore/"
                    + (postgres ? "tables_postgres.sql" : "tables_h2.sql"))) {
                ddl = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
                StringBuilder statement = new StringBuilder();
                for (String line : ddl.split("\n")) {
                    if (line.strip().startsWith("--")) {
                        continue;
                    }
                    statement.append(line).append('\n');
                    if (line.strip().endsWith(";")) {
                        String sql = statement.toString().strip();
                        statement.setLength(0);
                        if (!sql.toUpperCase().startsWith("COMMIT")) {
                            s.execute(sql.substring(0, sql.length() - 1));
                        }
                    }
                }
            }
        }

        public void scheduleJobs(Replica first, int jobs) throws Exception {
            org.quartz.Scheduler scheduler = ((QuartzReplica) first).scheduler;
            for (int i = 0; i < jobs; i++) {
                scheduler.scheduleJob(JobBuilder.newJob(QuartzJob.class).withIdentity("job-" + i).build(),
                        TriggerBuilder.newTrigger().withIdentity("trigger-" + i)
                                .withSchedule(CronScheduleBuilder.cronSchedule("* * * * * ?")).build());
            }
        }

        record QuartzReplica(org.quartz.Scheduler scheduler, HikariDataSource ds) implements Replica {
            public void close() throws Exception {
                scheduler.shutdown(false);
                ds.close();
            }
        }

        public Replica start(String url, int n) throws Exception {
            HikariDataSource ds = pool(url, "quartz-" + n);
            String dsName = "bench-ds-" + n + "-" + System.nanoTime();
            DBConnectionManager.getInstance().addConnectionProvider(dsName, new ConnectionProvider() {
                public Connection getConnection() throws java.sql.SQLException {
                    return ds.getConnection();
                }

                public void shutdown() {
                }

                public void initialize() {
                }
            });
            Properties p = new Properties();
            p.setProperty("org.quartz.scheduler.instanceName", "bench");
            p.setProperty("org.quartz.scheduler.instanceId", "replica-" + n);
            p.setProperty("org.quartz.scheduler.skipUpdateCheck", "true");
            p.setProperty("org.quartz.threadPool.threadCount", "10");
            p.setProperty("org.quartz.jobStore.class", "org.quartz.impl.jdbcjobstore.JobStoreTX");
            p.setProperty("org.quartz.jobStore.driverDelegateClass", postgres
                    ? "org.quartz.impl.jdbcjobstore.PostgreSQLDelegate" : "org.quartz.impl.jdbcjobstore.StdJDBCDelegate");
            p.setProperty("org.quartz.jobStore.dataSource", dsName);
            p.setProperty("org.quartz.jobStore.isClustered", "true");
            p.setProperty("org.quartz.jobStore.clusterCheckinInterval", "5000");
            org.quartz.Scheduler scheduler = new StdSchedulerFactory(p).getScheduler();
            // both replicas live in this JVM: Quartz keeps one scheduler per name in a JVM-wide registry
            SchedulerRepository.getInstance().remove("bench");
            scheduler.start();
            return new QuartzReplica(scheduler, ds);
        }
    }

    public static void main(String[] args) throws Exception {
        Path work = Path.of(args[0]);
        int jobs = Integer.parseInt(args[1]);
        int seconds = Integer.parseInt(args[2]);
        int downtime = Integer.parseInt(args[3]);
        postgres = args.length > 4;
        System.out.printf("%d jobs due every second, 2 replicas per engine on one %s, %d s measured, then %d s with no replica%n",
                jobs, postgres ? "PostgreSQL" : "embedded H2", seconds, downtime);
        for (Engine engine : List.of(new DbScheduler(), new Quartz())) {
            RUNS.clear();
            DELAYS.clear();
            // async: H2 file access that survives Quartz interrupting its threads at shutdown (the plain file channel closes
            // the database when a writing thread is interrupted)
            String url = postgres ? args[4] : "jdbc:h2:async:" + work.resolve(engine.name().split(" ")[0]).toAbsolutePath()
                    + ";DB_CLOSE_ON_EXIT=FALSE;WRITE_DELAY=0;LOCK_TIMEOUT=10000";
            try (HikariDataSource schema = pool(url, "schema")) {
                engine.createSchema(schema);
            }
            Replica a = engine.start(url, 1);
            Replica b = engine.start(url, 2);
            engine.scheduleJobs(a, jobs);
            Thread.sleep(5_000); // warm-up
            measureFrom = (System.currentTimeMillis() / 1000 + 1) * 1000;
            measureTo = measureFrom + seconds * 1000L;
            Thread.sleep(measureTo - System.currentTimeMillis() + 3_000);
            int due = 0;
            int missing = 0;
            int twice = 0;
            for (int j = 0; j < jobs; j++) {
                for (long t = measureFrom; t < measureTo; t += 1000) {
                    due++;
                    AtomicInteger n = RUNS.get("job-" + j + "@" + t);
                    if (n == null) {
                        missing++;
                    } else if (n.get() > 1) {
                        twice++;
                    }
                }
            }
            List<Long> delays = new ArrayList<>(DELAYS);
            Collections.sort(delays);
            System.out.printf("%s: %d instants due, %d ran once or more, %d missing, %d ran more than once;"
                            + " start delay p50 %d ms, p99 %d ms, max %d ms%n", engine.name(), due, due - missing, missing,
                    twice, pct(delays, 0.50), pct(delays, 0.99), delays.isEmpty() ? -1 : delays.get(delays.size() - 1));

            // downtime: every replica stops; the instants in between are missed; two new replicas start
            a.close();
            b.close();
            long stoppedAt = System.currentTimeMillis();
            Thread.sleep(downtime * 1000L);
            long restartedAt = System.currentTimeMillis();
            long firstMissed = (stoppedAt / 1000 + 2) * 1000; // a run may still have started in the second it stopped
            long lastMissed = (restartedAt / 1000 - 1) * 1000;
            int ranAfter = RUNS.size();
            Replica c = engine.start(url, 3);
            Replica d = engine.start(url, 4);
            Thread.sleep(Math.max(15_000, downtime * 300L));
            int missed = 0;
            int caughtUp = 0;
            int duplicates = 0;
            for (int j = 0; j < jobs; j++) {
                for (long t = firstMissed; t <= lastMissed; t += 1000) {
                    missed++;
                    AtomicInteger n = RUNS.get("job-" + j + "@" + t);
                    if (n != null) {
                        caughtUp++;
                        duplicates += n.get() > 1 ? 1 : 0;
                    }
                }
            }
            System.out.printf("%s: after %d s with no replica, %d of %d missed instants ran (%d more than once); %d runs in all after the restart%n",
                    engine.name(), downtime, caughtUp, missed, duplicates, RUNS.size() - ranAfter);
            c.close();
            d.close();
        }
        System.exit(0);
    }

    static long pct(List<Long> sorted, double p) {
        return sorted.isEmpty() ? -1 : sorted.get(Math.min(sorted.size() - 1, (int) (p * sorted.size())));
    }
}
