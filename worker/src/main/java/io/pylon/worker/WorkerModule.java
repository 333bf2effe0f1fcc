package io.pylon.worker;

import io.micrometer.core.instrument.FunctionCounter;
import org.jspecify.annotations.Nullable;

import io.helidon.webserver.http.Handler;
import io.pylon.cache.client.GridClient;
import io.pylon.cache.client.GridClientSettings;
import io.pylon.core.config.InvalidSettingException;
import io.pylon.core.config.Setting;
import io.pylon.core.config.Settings;
import io.pylon.core.http.PodPaths;
import io.pylon.core.server.ModuleContext;
import io.pylon.core.server.PylonModule;
import io.pylon.core.pod.CoreSettings;
import io.pylon.worker.config.ConfigCheck;
import io.pylon.worker.config.ConfigMeters;
import io.pylon.worker.config.ConfigSection;
import io.pylon.worker.config.ConfigSettings;
import io.pylon.worker.config.GatewayConfig;
import io.pylon.worker.config.GridBundleSource;
import io.pylon.worker.config.LastKnownGood;
import io.pylon.worker.config.ManagerContact;
import io.pylon.worker.config.ManagerFollower;
import io.pylon.worker.keys.KeyFollower;
import io.pylon.worker.keys.KeySet;
import io.pylon.worker.usage.UsageMeters;
import io.pylon.worker.usage.UsageRecorder;
import io.pylon.worker.usage.UsageReporter;
import io.pylon.worker.usage.UsageSettings;
import io.pylon.worker.connections.CacheCheck;
import io.pylon.worker.connections.ConnectionsCheck;
import io.pylon.worker.connections.ConnectionsSection;
import io.pylon.worker.connections.ServerTraffic;
import io.pylon.core.server.ConnectionLimits;
import io.pylon.worker.listener.Http2Protocols;
import io.pylon.worker.listener.ListenerSettings;
import io.pylon.worker.listener.ListenerTls;
import io.pylon.worker.listener.PemKeyPair;
import io.pylon.worker.proxy.AccessLog;
import io.pylon.worker.proxy.GatewayRefusals;
import io.pylon.worker.proxy.GatewayRoute;
import io.pylon.worker.proxy.GatewaySettings;
import io.pylon.worker.proxy.WebSocketSettings;
import io.pylon.worker.proxy.WebSocketTunnels;
import io.pylon.worker.proxy.WebSocketUpgrader;
import io.pylon.worker.proxy.ProxyHandler;
import io.pylon.worker.proxy.ProxyMeters;
import io.pylon.worker.proxy.ProxyStats;
import io.pylon.worker.proxy.ResponseTimeouts;
import io.pylon.worker.proxy.UpstreamPool;
import io.pylon.worker.proxy.UpstreamHealthChecks;
import io.pylon.worker.proxy.UpstreamPools;
import io.pylon.worker.proxy.UpstreamSettings;
import io.pylon.worker.ratelimit.GridRateLimiter;
import io.pylon.worker.ratelimit.RateLimitSettings;
import io.pylon.gateway.model.InvalidProxyException;
import io.pylon.gateway.model.ProxyParser;
import io.pylon.worker.routes.RoutesMeters;
import io.pylon.worker.routes.RoutesFile;
import io.pylon.worker.routes.RouteTable;
import io.pylon.worker.routes.RoutesSettings;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The Worker: the API gateway data plane, with diagnostics of its pods.
 *
 * <p>Threading: {@code start} runs once on the starting thread and publishes the connections section through a
 * volatile field, which diagnostics threads read afterwards.
 */
public final class WorkerModule implements PylonModule {
    public static final String NAME = "worker";

    private static final System.Logger LOG = System.getLogger(WorkerModule.class.getName());

    private volatile @Nullable ConnectionsSection connections;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String displayName() {
        return "Worker";
    }

    @Override
    public int defaultPort() {
        return 8091;
    }

    @Override
    public boolean servesDiagnostics() {
        return true;
    }

    /** Gateway routes stream request bodies of any framing to the upstream APIs. */
    @Override
    public boolean acceptsChunkedRequests() {
        return true;
    }

    @Override
    public List<Setting<?>> settings() {
        List<Setting<?>> all = new ArrayList<>(ConfigSettings.all());
        all.addAll(RoutesSettings.all());
        all.addAll(UpstreamSettings.all());
        all.addAll(GatewaySettings.all());
        all.addAll(RateLimitSettings.all());
        all.addAll(GridClientSettings.all());
        all.addAll(ListenerSettings.all());
        all.addAll(WebSocketSettings.all());
        all.addAll(UsageSettings.all());
        return all;
    }

    @Override
    public void start(ModuleContext context) throws InvalidProxyException {
        Settings settings = context.settings();
        UpstreamPools pools = new UpstreamPools(new UpstreamPool.PoolSettings(
                settings.get(UpstreamSettings.MAX_TOTAL), settings.get(UpstreamSettings.MAX_PER_ROUTE),
                settings.get(UpstreamSettings.CONNECT_TIMEOUT), settings.get(UpstreamSettings.LEASE_TIMEOUT)),
                settings.get(UpstreamSettings.IDLE_TIMEOUT), settings.get(UpstreamSettings.FAILURE_COOLDOWN));
        context.onStop(pools);

        ProxyParser parser = new ProxyParser(context.segment(), settings.get(UpstreamSettings.CONNECT_TIMEOUT),
                settings.get(UpstreamSettings.RESPONSE_TIMEOUT));
        String source = settings.get(ConfigSettings.SOURCE);
        boolean fromManager = source.equals("manager");
        if (!fromManager && !source.equals("file")) {
            throw new InvalidSettingException("Setting " + ConfigSettings.SOURCE.key() + " must be 'manager' or 'file', "
                    + "not '" + source.replaceAll("\\p{Cntrl}", "?") + "'.");
        }
        ProxyMeters proxyMeters = ProxyMeters.create(context.metrics(), pools);
        RouteTable.Listener onLoad = next -> {
            pools.sync(next);
            proxyMeters.prepare(next);
        };
        RoutesFile routes = new RoutesFile(fromManager ? null : settings.find(RoutesSettings.FILE), parser, onLoad);
        try {
            routes.loadInitial();
        } catch (InvalidProxyException e) {
            throw new InvalidSettingException("Setting " + RoutesSettings.FILE.key() + ": " + e.getMessage());
        }
        Supplier<RouteTable> table = routes::current;
        Supplier<Map<String, Object>> configState = () -> {
            Map<String, Object> state = new java.util.LinkedHashMap<>();
            state.put("configSource", "file");
            state.putAll(routes.describe());
            return state;
        };
        GridClient grid = GridClientSettings.configured(settings) ? GridClient.start(settings) : null;
        if (grid != null) {
            context.onStop(grid);
        }
        GatewayConfig managed = null;
        ManagerFollower follower = null;
        KeySet keys = new KeySet();
        KeyFollower keyFollower = null;
        UsageReporter usageReporter = null;
        if (fromManager) {
            URI managerUrl = settings.find(ConfigSettings.MANAGER_URL);
            if (managerUrl == null) {
                throw new InvalidSettingException("Setting " + ConfigSettings.MANAGER_URL.key() + " is required when "
                        + ConfigSettings.SOURCE.key() + " is 'manager'.");
            }
            String environmentId = settings.find(CoreSettings.ENVIRONMENT_ID);
            if (environmentId == null || environmentId.isBlank()) {
                throw new InvalidSettingException("Setting " + CoreSettings.ENVIRONMENT_ID.key() + " is required when "
                        + ConfigSettings.SOURCE.key() + " is 'manager' (the Worker proves its environment with it).");
            }
            managed = new GatewayConfig(parser, onLoad);
            ManagerContact contact = new ManagerContact(managerUrl);
            int maxBundleBytes = settings.get(ConfigSettings.MAX_BUNDLE_MB) * 1024 * 1024;
            follower = new ManagerFollower(managerUrl, environmentId,
                    context.identity().podName(), context.identity().podIp(), managed, new LastKnownGood(context.dataDir()),
                    grid == null ? null : new GridBundleSource(grid, settings.get(CoreSettings.ENVIRONMENT_NAME),
                            environmentId, maxBundleBytes),
                    settings.get(ConfigSettings.POLL_WAIT), settings.get(ConfigSettings.MANAGER_TIMEOUT),
                    maxBundleBytes, context.executors().maintenance(), contact);
            context.onStop(follower);
            keyFollower = new KeyFollower(managerUrl, environmentId, keys,
                    settings.get(ConfigSettings.POLL_WAIT), settings.get(ConfigSettings.MANAGER_TIMEOUT), contact);
            context.onStop(keyFollower);
            if (settings.get(UsageSettings.ENABLED)) {
                usageReporter = new UsageReporter(managerUrl, environmentId,
                        context.identity().podName(), new UsageRecorder(settings.get(UsageSettings.MAX_ENTRIES)),
                        settings.get(UsageSettings.REPORT_INTERVAL), settings.get(ConfigSettings.MANAGER_TIMEOUT),
                        contact);
                context.onStop(usageReporter);
                UsageMeters.bind(usageReporter.recorder(), context.metrics());
            }
            table = managed::current;
            ManagerFollower bundles = follower;
            KeyFollower keyState = keyFollower;
            UsageReporter usageState = usageReporter;
            configState = () -> {
                Map<String, Object> state = new java.util.LinkedHashMap<>(bundles.describe());
                state.putAll(keyState.describe());
                if (usageState != null) {
                    state.putAll(usageState.describe());
                }
                return state;
            };
        }
        Supplier<RouteTable> inForce = table;

        GridRateLimiter rateLimiter = new GridRateLimiter(grid, settings.get(RateLimitSettings.TIMEOUT));

        ServerTraffic traffic = new ServerTraffic(context::port);
        ProxyStats stats = new ProxyStats(proxyMeters);
        RoutesMeters.bind(routes, context.metrics());
        context.routes().routing().addFilter(traffic);
        ScheduledThreadPoolExecutor maintenance = context.executors().maintenance();
        ResponseTimeouts responseTimeouts = new ResponseTimeouts(maintenance);
        UsageRecorder usage = usageReporter == null ? null : usageReporter.recorder();
        ProxyHandler proxy = new ProxyHandler(context.segment(), inForce, pools, responseTimeouts, rateLimiter,
                rateLimiter, stats, GatewaySettings.trustedProxies(settings),
                settings.get(GatewaySettings.MAX_REQUEST_BODY), keys, usage, context.clientDepartures(),
                settings.get(GatewaySettings.REQUEST_ID));
        Handler timedProxy = context.routes().timed("gateway", proxy);
        AccessLog accessLog = null;
        if (settings.get(GatewaySettings.ACCESS_LOG)) {
            accessLog = new AccessLog(System.out);
            context.onStop(accessLog);
            FunctionCounter.builder("pylon.worker.access.log.dropped", accessLog, AccessLog::dropped)
                    .description("Access log lines dropped because standard output did not keep up")
                    .register(context.metrics().registry());
            timedProxy = accessLog.around(timedProxy);
        }
        context.refusals().observe(new GatewayRefusals(settings.get(GatewaySettings.REQUEST_ID), accessLog));
        // the pod's own paths are not the gateway's: those the platform's routes do not match go on to the 404
        // handler, which times them as "unmatched"
        context.routes().routing().route(new GatewayRoute(PodPaths.of(context.segment()), timedProxy));

        long reload = settings.get(RoutesSettings.RELOAD_INTERVAL).toMillis();
        maintenance.scheduleWithFixedDelay(periodic("Routes reload", routes::reloadIfChanged), reload, reload, TimeUnit.MILLISECONDS);
        UpstreamHealthChecks healthChecks = new UpstreamHealthChecks(pools);
        maintenance.scheduleWithFixedDelay(periodic("Upstream health checks",
                () -> healthChecks.run(inForce.get(), context.executors().async())), 1, 1, TimeUnit.SECONDS);
        long tlsReload = settings.get(ListenerSettings.TLS_RELOAD_INTERVAL).toMillis();
        maintenance.scheduleWithFixedDelay(periodic("Upstream TLS reload", pools::reloadTlsFiles), tlsReload, tlsReload,
                TimeUnit.MILLISECONDS);
        long recheck = settings.get(UpstreamSettings.RECHECK_INTERVAL).toMillis();
        maintenance.scheduleWithFixedDelay(
                periodic("Upstream pool maintenance", () -> pools.maintain(context.executors().async())), recheck, recheck,
                TimeUnit.MILLISECONDS);

        ListenerTls tls = listenerTls(settings);
        if (tls != null) {
            context.listener().tls(tls.tls(), tls.probeSockets(), tls.peerTls());
            long every = settings.get(ListenerSettings.TLS_RELOAD_INTERVAL).toMillis();
            maintenance.scheduleWithFixedDelay(periodic("TLS reload", tls::reloadIfChanged), every, every,
                    TimeUnit.MILLISECONDS);
        }
        if (settings.get(ListenerSettings.HTTP2)) {
            Http2Protocols.install(context.listener(), settings.get(ListenerSettings.HTTP2_MAX_STREAMS),
                    settings.get(ConnectionLimits.MAX_HEADER_SIZE).intValue());
        }

        WebSocketTunnels tunnels = new WebSocketTunnels(settings.get(WebSocketSettings.IDLE_TIMEOUT),
                settings.get(WebSocketSettings.MAX_TUNNELS), maintenance, context.metrics().registry());
        context.onStop(tunnels);
        context.listener().addUpgrader(new WebSocketUpgrader(context.segment(), inForce, rateLimiter, rateLimiter,
                tunnels, stats, keys, pools, settings.get(ConnectionLimits.MAX_HEADER_SIZE).intValue(),
                settings.get(GatewaySettings.REQUEST_ID)));
        // a tunnel holds its client connection for hours: 8 KiB less per connection than socket channels hold
        context.listener().blockingSockets();
        context.listener().relayContentCodings(); // a client's compressed body reaches the upstream as it came
        context.listener().relayRequestTargets(); // a query reaches the upstream as it came; RequestPath checks paths

        connections = new ConnectionsSection(pools, traffic, stats, rateLimiter, routes, tls, tunnels,
                responseTimeouts);
        context.diagnostics().register(connections);
        context.health().register(new ConnectionsCheck(pools, traffic));
        context.health().register(new CacheCheck(rateLimiter, () -> inForce.get() != null
                && inForce.get().routes().stream().anyMatch(r -> r.rateLimit() != null)));
        context.diagnostics().register(new ConfigSection(configState));
        if (managed != null && follower != null && keyFollower != null) {
            context.health().register(new ConfigCheck(managed));
            ConfigMeters.bind(managed, follower, context.metrics());
            follower.start();
            keyFollower.start();
            if (usageReporter != null) {
                usageReporter.start();
            }
        }
    }

    private static @Nullable ListenerTls listenerTls(Settings settings) {
        var certificate = settings.find(ListenerSettings.TLS_CERTIFICATE);
        var key = settings.find(ListenerSettings.TLS_KEY);
        if (certificate == null && key == null) {
            return null;
        }
        if (certificate == null || key == null) {
            throw new InvalidSettingException("Settings " + ListenerSettings.TLS_CERTIFICATE.key() + " and "
                    + ListenerSettings.TLS_KEY.key() + " go together: set both or neither.");
        }
        try {
            return ListenerTls.load(certificate, key);
        } catch (PemKeyPair.InvalidPemException e) {
            throw new InvalidSettingException("Settings " + ListenerSettings.TLS_CERTIFICATE.key() + " and "
                    + ListenerSettings.TLS_KEY.key() + ": " + e.getMessage() + ".");
        }
    }

    /** The {@code connections} section of the running pod (null before start). */
    public @Nullable ConnectionsSection connections() {
        return connections;
    }

    // A periodic task that throws is never run again by the executor; log and keep the schedule alive.
    private static Runnable periodic(String what, Runnable task) {
        return () -> {
            try {
                task.run();
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, what + " failed: " + e.getClass().getSimpleName(), e);
            }
        };
    }
}
