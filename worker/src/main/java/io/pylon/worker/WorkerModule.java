package io.pylon.worker;

import io.helidon.webserver.http.Handler;
import io.pylon.cache.client.GridClient;
import io.pylon.cache.client.GridClientSettings;
import io.pylon.core.config.InvalidSettingException;
import io.pylon.core.config.Setting;
import io.pylon.core.config.Settings;
import io.pylon.core.http.PodPaths;
import io.pylon.core.server.ModuleContext;
import io.pylon.core.server.PylonModule;
import io.pylon.worker.connections.CacheCheck;
import io.pylon.worker.connections.ConnectionsCheck;
import io.pylon.worker.connections.ConnectionsSection;
import io.pylon.worker.connections.ServerTraffic;
import io.pylon.worker.proxy.GatewayFilter;
import io.pylon.worker.proxy.ProxyHandler;
import io.pylon.worker.proxy.ProxyMeters;
import io.pylon.worker.proxy.ProxyStats;
import io.pylon.worker.proxy.ResponseTimeouts;
import io.pylon.worker.proxy.UpstreamPool;
import io.pylon.worker.proxy.UpstreamPools;
import io.pylon.worker.proxy.UpstreamSettings;
import io.pylon.worker.ratelimit.GridRateLimiter;
import io.pylon.worker.ratelimit.RateLimitSettings;
import io.pylon.worker.routes.InvalidRoutesException;
import io.pylon.worker.routes.RouteFileParser;
import io.pylon.worker.routes.RoutesMeters;
import io.pylon.worker.routes.RoutesFile;
import io.pylon.worker.routes.RoutesSettings;
import org.jspecify.annotations.Nullable;

import java.util.ArrayList;
import java.util.List;
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
        List<Setting<?>> all = new ArrayList<>(RoutesSettings.all());
        all.addAll(UpstreamSettings.all());
        all.addAll(RateLimitSettings.all());
        all.addAll(GridClientSettings.all());
        return all;
    }

    @Override
    public void start(ModuleContext context) throws InvalidRoutesException {
        Settings settings = context.settings();
        UpstreamPools pools = new UpstreamPools(new UpstreamPool.PoolSettings(
                settings.get(UpstreamSettings.MAX_TOTAL), settings.get(UpstreamSettings.MAX_PER_ROUTE),
                settings.get(UpstreamSettings.CONNECT_TIMEOUT), settings.get(UpstreamSettings.LEASE_TIMEOUT)),
                settings.get(UpstreamSettings.IDLE_TIMEOUT), settings.get(UpstreamSettings.FAILURE_COOLDOWN));
        context.onStop(pools);

        RoutesFile routes = new RoutesFile(settings.find(RoutesSettings.FILE),
                new RouteFileParser(context.segment(), settings.get(UpstreamSettings.CONNECT_TIMEOUT),
                        settings.get(UpstreamSettings.RESPONSE_TIMEOUT)), pools::sync);
        try {
            routes.loadInitial();
        } catch (InvalidRoutesException e) {
            throw new InvalidSettingException("Setting " + RoutesSettings.FILE.key() + ": " + e.getMessage());
        }

        GridClient grid = GridClientSettings.configured(settings) ? GridClient.start(settings) : null;
        if (grid != null) {
            context.onStop(grid);
        }
        GridRateLimiter rateLimiter = new GridRateLimiter(grid, settings.get(RateLimitSettings.TIMEOUT));

        ServerTraffic traffic = new ServerTraffic(context::port);
        ProxyStats stats = new ProxyStats(ProxyMeters.create(context.metrics(), pools));
        RoutesMeters.bind(routes, context.metrics());
        context.routes().routing().addFilter(traffic);
        ScheduledThreadPoolExecutor maintenance = context.executors().maintenance();
        ResponseTimeouts responseTimeouts = new ResponseTimeouts(maintenance);
        ProxyHandler proxy = new ProxyHandler(context.segment(), routes::current, pools, responseTimeouts, rateLimiter,
                stats);
        Handler timedProxy = context.routes().timed("gateway", proxy);
        // after the traffic filter, which counts proxied requests too; the pod's own paths the routes do not match
        // go on to the 404 handler, which times them as "unmatched"
        context.routes().routing().addFilter(new GatewayFilter(PodPaths.of(context.segment()), timedProxy));

        long reload = settings.get(RoutesSettings.RELOAD_INTERVAL).toMillis();
        maintenance.scheduleWithFixedDelay(periodic("Routes reload", routes::reloadIfChanged), reload, reload, TimeUnit.MILLISECONDS);
        long recheck = settings.get(UpstreamSettings.RECHECK_INTERVAL).toMillis();
        maintenance.scheduleWithFixedDelay(
                periodic("Upstream pool maintenance", () -> pools.maintain(context.executors().async())), recheck, recheck,
                TimeUnit.MILLISECONDS);

        connections = new ConnectionsSection(pools, traffic, stats, rateLimiter, routes);
        context.diagnostics().register(connections);
        context.health().register(new ConnectionsCheck(pools, traffic));
        context.health().register(new CacheCheck(rateLimiter,
                () -> routes.current().routes().stream().anyMatch(r -> r.rateLimit() != null)));
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
