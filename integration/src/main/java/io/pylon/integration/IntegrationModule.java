package io.pylon.integration;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.pylon.core.config.Setting;
import io.pylon.core.config.Settings;
import io.pylon.core.server.ModuleContext;
import io.pylon.core.server.PylonModule;
import io.pylon.integration.egress.EgressGuard;
import io.pylon.integration.egress.GuardedDnsResolver;
import io.pylon.integration.flow.FlowParser;
import io.pylon.integration.flow.FlowSchema;
import io.pylon.integration.run.FlowRunner;
import io.pylon.integration.run.RunListener;
import io.pylon.integration.run.RunOutcome;
import io.pylon.integration.schedule.FlowCatalog;
import io.pylon.integration.schedule.FlowScheduler;
import io.pylon.integration.schedule.SchedulerOptions;
import io.pylon.integration.step.Expressions;
import io.pylon.integration.step.HttpCaller;
import io.pylon.integration.step.SecretStore;
import io.pylon.integration.step.StepRunner;
import io.pylon.integration.store.FlowStore;
import io.pylon.integration.store.H2ExitClose;
import io.pylon.integration.store.IntegrationDatabase;
import io.pylon.integration.store.RunStore;
import io.pylon.integration.web.IntegrationApi;
import io.pylon.integration.web.ManagerTokens;
import io.pylon.integration.web.RunWaiters;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/**
 * The Integration module: integration flows (documents validated against a published schema) run on a schedule or
 * when called, on db-scheduler over a database the Integration pods share, with their history. See
 * docs/integration.md.
 */
public final class IntegrationModule implements PylonModule {
    public static final String NAME = "integration";
    /** The system property H2 reads, once, for the address its TCP server binds (automatic mixed mode). */
    private static final String H2_BIND_ADDRESS = "h2.bindAddress";
    private static final System.Logger LOG = System.getLogger(IntegrationModule.class.getName());

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String displayName() {
        return "Integration";
    }

    @Override
    public int defaultPort() {
        return 8092;
    }

    @Override
    public boolean servesDiagnostics() {
        return true;
    }

    @Override
    public List<Setting<?>> settings() {
        return IntegrationSettings.all();
    }

    @Override
    public void start(ModuleContext context) throws Exception {
        Settings settings = context.settings();
        Clock clock = Clock.systemUTC();
        ObjectMapper json = JsonMapper.builder().build();

        String url = settings.find(IntegrationSettings.DB_URL);
        String user = settings.find(IntegrationSettings.DB_USER);
        String password = settings.find(IntegrationSettings.DB_PASSWORD);
        if (url == null) {
            url = IntegrationDatabase.h2Url(context.dataDir());
            user = user == null ? "pylon" : user;
            password = password == null ? "" : password;
        }
        if (IntegrationDatabase.servesOverTcp(url) && System.getProperty(H2_BIND_ADDRESS) == null) {
            // H2 serves an automatic mixed mode database on every interface unless told otherwise: only on the pod's
            String bind = settings.get(io.pylon.core.pod.CoreSettings.BIND);
            if (!bind.equals("0.0.0.0") && !bind.equals("::")) {
                System.setProperty(H2_BIND_ADDRESS, bind);
            }
        }
        if (IntegrationDatabase.servesOverTcp(url)) {
            H2ExitClose exitClose = H2ExitClose.takeOver();
            if (exitClose != null) {
                context.onStop(exitClose); // closed last: after the scheduler stopped and the pool closed
            }
        }
        IntegrationDatabase database = IntegrationDatabase.open(url, user, password,
                settings.get(IntegrationSettings.DB_POOL_SIZE),
                context.metrics().enabled() ? context.metrics().registry() : null);
        context.onStop(database);

        FlowStore flows = new FlowStore(database.dataSource());
        RunStore runs = new RunStore(database.dataSource(), settings.get(IntegrationSettings.HISTORY_OUTPUT_MAX));
        FlowParser parser = new FlowParser(new FlowSchema(json));

        EgressGuard guard = EgressGuard.of(settings.get(IntegrationSettings.ALLOWED_HOSTS));
        if (guard.allowsNothing()) {
            LOG.log(System.Logger.Level.INFO, "pylon.integration.allowed-hosts is empty: http and webhook steps are refused");
        }
        ScheduledExecutorService deadlines = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "integration-deadlines");
            t.setDaemon(true);
            return t;
        });
        context.onStop(deadlines::shutdownNow);
        HttpCaller http = new HttpCaller(new GuardedDnsResolver(guard), deadlines,
                settings.get(IntegrationSettings.HTTP_MAX_CONNECTIONS));
        context.onStop(http);
        Path secretsDir = settings.find(IntegrationSettings.SECRETS_DIR);
        if (secretsDir == null) {
            secretsDir = context.dataDir().resolve("secrets");
            Files.createDirectories(secretsDir);
        }
        StepRunner steps = new StepRunner(json,
                new Expressions(json, settings.get(IntegrationSettings.TRANSFORM_TIMEOUT),
                        settings.get(IntegrationSettings.TRANSFORM_MAX_DEPTH)),
                http, new SecretStore(secretsDir), clock, settings.get(IntegrationSettings.HTTP_MAX_BODY));

        IntegrationMeters meters = new IntegrationMeters(context.metrics().registry());
        RunWaiters waiters = new RunWaiters(settings.get(IntegrationSettings.TRIGGER_MAX_WAITING));
        RunListener listeners = new RunListener() {
            @Override
            public void started(String flow, String runId, Duration startDelay) {
                meters.started(flow, runId, startDelay);
            }

            @Override
            public void finished(String flow, String runId, RunOutcome outcome) {
                meters.finished(flow, runId, outcome);
                waiters.finished(flow, runId, outcome);
            }
        };
        FlowRunner runner = new FlowRunner(flows, runs, steps, json, clock, context.identity().podName(), listeners,
                settings.get(IntegrationSettings.PREVIOUS_MAX));
        Duration retention = settings.get(IntegrationSettings.HISTORY_RETENTION);
        int keep = settings.get(IntegrationSettings.HISTORY_MAX_RUNS);
        Runnable prune = () -> {
            int deleted = runs.prune(clock.instant().minus(retention), keep, 5000);
            if (deleted > 0) {
                LOG.log(System.Logger.Level.INFO, "Pruned " + deleted + " runs from integration history");
            }
        };
        FlowCatalog catalog = new FlowCatalog(flows, parser);
        FlowScheduler scheduler = new FlowScheduler(database.dataSource(), database.product(), catalog, runner, runs,
                json, clock, new SchedulerOptions(settings.get(IntegrationSettings.THREADS),
                settings.get(IntegrationSettings.POLLING_INTERVAL), settings.get(IntegrationSettings.SCHEDULE_LEAD),
                settings.get(IntegrationSettings.HEARTBEAT_INTERVAL),
                settings.get(IntegrationSettings.MISSED_HEARTBEATS), context.identity().podName()),
                prune, settings.get(IntegrationSettings.HISTORY_PRUNE_INTERVAL));
        context.metrics().beforeScrape(() -> meters.refresh(scheduler));

        ManagerTokens tokens = new ManagerTokens(settings.get(IntegrationSettings.MANAGER_URL), json,
                settings.get(IntegrationSettings.TOKEN_CACHE), clock);
        new IntegrationApi(context.segment(), parser, catalog, flows, runs, scheduler, waiters, tokens, json, clock,
                settings.get(IntegrationSettings.TRIGGER_MAX_INPUT), settings.get(IntegrationSettings.MAX_FLOWS))
                .register(context.routes());

        Map<String, Object> shown = new LinkedHashMap<>();
        shown.put("threads", settings.get(IntegrationSettings.THREADS));
        shown.put("pollingInterval", settings.get(IntegrationSettings.POLLING_INTERVAL).toString());
        shown.put("scheduleLead", settings.get(IntegrationSettings.SCHEDULE_LEAD).toString());
        shown.put("heartbeatInterval", settings.get(IntegrationSettings.HEARTBEAT_INTERVAL).toString());
        shown.put("missedHeartbeats", settings.get(IntegrationSettings.MISSED_HEARTBEATS));
        shown.put("allowedHosts", settings.get(IntegrationSettings.ALLOWED_HOSTS));
        context.diagnostics().register(new IntegrationSection(database, scheduler, flows, runs, meters, shown));

        scheduler.start();
        context.onStop(scheduler);
        LOG.log(System.Logger.Level.INFO, "Integration scheduler started on " + database.product() + " at "
                + Instant.now(clock));
    }
}
