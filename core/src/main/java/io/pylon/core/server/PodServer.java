package io.pylon.core.server;

import io.helidon.common.socket.SocketOptions;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http1.Http1Config;
import io.pylon.core.broadcast.BroadcastLimits;
import io.pylon.core.broadcast.BroadcastMeters;
import io.pylon.core.broadcast.BroadcastSettings;
import io.pylon.core.broadcast.DiagnosticsBroadcast;
import io.pylon.core.config.InvalidSettingException;
import io.pylon.core.config.Setting;
import io.pylon.core.config.Settings;
import io.pylon.core.diagnostics.CoreDiagnostics;
import io.pylon.core.storage.DataBudget;
import io.pylon.core.storage.StorageSettings;
import io.pylon.core.diagnostics.DiagnosticsRegistry;
import io.pylon.core.diagnostics.DiagnosticsSettings;
import io.pylon.core.diagnostics.EnvironmentIdGuard;
import io.pylon.core.diagnostics.postmortem.Postmortem;
import io.pylon.core.diagnostics.postmortem.PostmortemSettings;
import io.pylon.core.diagnostics.web.DiagnosticsEndpoint;
import io.pylon.core.discovery.Discoveries;
import io.pylon.core.discovery.DiscoverySettings;
import io.pylon.core.discovery.PodDiscovery;
import io.pylon.core.health.DeadlockCheck;
import io.pylon.core.health.HealthEndpoint;
import io.pylon.core.health.HealthRegistry;
import io.pylon.core.health.MemoryCheck;
import io.pylon.core.health.ShutdownCheck;
import io.pylon.core.http.BodyReadWatch;
import io.pylon.core.http.ClientDepartures;
import io.pylon.core.http.ConnectionGuard;
import io.pylon.core.http.ErrorHandling;
import io.pylon.core.http.PodPaths;
import io.pylon.core.http.Refusals;
import io.pylon.core.http.Routes;
import io.pylon.core.metrics.ExecutorMetrics;
import io.pylon.core.metrics.HealthMetrics;
import io.pylon.core.metrics.HttpServerMetrics;
import io.pylon.core.metrics.MetricsEndpoint;
import io.pylon.core.metrics.PodMetrics;
import io.pylon.core.metrics.RefusalMeters;
import io.pylon.core.pod.CoreSettings;
import io.pylon.core.pod.LocalHost;
import io.pylon.core.pod.PodExecutors;
import io.pylon.core.pod.PodIdentity;
import io.pylon.core.version.BuildInfo;
import io.pylon.core.version.VersionEndpoint;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Starts one pod of a module: validates settings, builds the routes, binds the server.
 *
 * <p>Threading: {@code start} runs on the starting thread; the port the server really listens on is set once after
 * binding in an atomic integer that metrics and modules' request threads read.
 */
public final class PodServer {
    private static final System.Logger LOG = System.getLogger(PodServer.class.getName());

    /** Largest request line (method, path, query) accepted by default ({@link ConnectionLimits#MAX_REQUEST_LINE}); longer ones get 414. */
    public static final int MAX_REQUEST_LINE = 8 * 1024;
    /**
     * Largest header block accepted by default ({@link ConnectionLimits#MAX_HEADER_SIZE}); larger ones get 431 (beyond
     * four times it the parser stops reading: 431 too).
     */
    public static final int MAX_HEADERS = 16 * 1024;

    private PodServer() {
    }

    /** The settings every pod reads, whatever its module: the core ones and the connection limits. */
    public static List<Setting<?>> podSettings(int defaultPort) {
        List<Setting<?>> all = new ArrayList<>(CoreSettings.all(defaultPort));
        all.addAll(2, ConnectionLimits.settings());
        return List.copyOf(all);
    }

    /** Every setting the module reads, core ones first: validated before anything starts. */
    public static List<Setting<?>> settingsOf(PylonModule module) {
        List<Setting<?>> all = new ArrayList<>(podSettings(module.defaultPort()));
        if (module.servesDiagnostics()) {
            all.addAll(DiagnosticsSettings.all());
            all.addAll(StorageSettings.all());
            all.addAll(io.pylon.core.diagnostics.compare.CompareSettings.all());
            all.addAll(PostmortemSettings.all());
            all.addAll(DiscoverySettings.all());
            all.addAll(BroadcastSettings.all());
        }
        all.addAll(module.settings());
        return all;
    }

    public static Pod start(PylonModule module, Settings settings) {
        long t0 = System.nanoTime();
        for (Setting<?> setting : settingsOf(module)) {
            settings.find(setting);
        }
        String segment = settings.get(CoreSettings.PATH_SEGMENT);
        String bind = settings.get(CoreSettings.BIND);
        int port = settings.get(CoreSettings.port(module.defaultPort()));
        BuildInfo build = BuildInfo.load();
        PodIdentity identity = identity(module, settings, bind, port, build);
        Path dataDir = dataDir(settings, identity);

        PodExecutors executors = new PodExecutors(segment, CoreSettings.asyncThreads(settings),
                settings.get(CoreSettings.ASYNC_QUEUE), settings.get(CoreSettings.MAINTENANCE_THREADS));
        Deque<AutoCloseable> resources = new ArrayDeque<>();
        resources.push(executors);
        HealthRegistry health = new HealthRegistry(executors.async(), settings.get(CoreSettings.HEALTH_CHECK_TIMEOUT),
                settings.get(CoreSettings.HEALTH_CACHE_TTL));
        ShutdownCheck shutdown = new ShutdownCheck();
        health.register(new MemoryCheck(settings.get(CoreSettings.HEAP_THRESHOLD)));
        health.register(new DeadlockCheck());
        health.register(shutdown);
        PodMetrics metrics = PodMetrics.create(settings.get(CoreSettings.METRICS_ENABLED), module.name(), build);
        resources.push(metrics);
        ExecutorMetrics.bind(executors, metrics);
        HealthMetrics.bind(health, metrics);
        AtomicInteger listeningPort = new AtomicInteger(port);

        HttpRouting.Builder routing = HttpRouting.builder();
        Http2Connections http2 = new Http2Connections();
        RequestDepartures departures = new RequestDepartures(http2);
        PodTraffic traffic = new PodTraffic(http2);
        traffic.install(routing);
        ConnectionLimits limits = ConnectionLimits.from(settings);
        BodyReadWatch bodyReads = new BodyReadWatch(limits.bodyTimeout());
        Refusals refusals = new Refusals();
        RefusalMeters.bind(refusals, metrics);
        ConnectionGuard.install(routing, chunkedPaths(module, segment), limits.lingeringBytes(), bodyReads, refusals);
        ErrorHandling.install(routing);
        ErrorHandling.limitHeaders(routing, limits.maxHeaderSize(), refusals);
        Routes routes = new Routes(routing, new HttpServerMetrics(metrics, listeningPort::get, executors.maintenance()));
        new HealthEndpoint(health, module.name()).register(routes, segment);
        new VersionEndpoint(module.name(), module.displayName(), build).register(routes, segment);
        new MetricsEndpoint(metrics).register(routes, segment);

        ListenerProtocols protocols = new ListenerProtocols();
        DataBudget budget = new DataBudget(settings.get(StorageSettings.BUDGET), StorageSettings.BUDGET.key(),
                settings.get(StorageSettings.EVICT_RECORDINGS));
        Context context = new Context(settings, identity, segment, dataDir, budget, routes, health, executors,
                new DiagnosticsRegistry(), metrics, protocols, departures, refusals, build, resources, listeningPort,
                shutdown);
        try {
            if (module.servesDiagnostics()) {
                installDiagnostics(context, settingsOf(module));
            }
            module.start(context);
        } catch (InvalidSettingException e) {
            closeAll(resources);
            throw e;
        } catch (Exception e) {
            closeAll(resources);
            throw new IllegalStateException("Module " + module.name() + " failed to start: " + e.getMessage(), e);
        }
        routes.finish();

        ensureFree(bind, port, resources);
        ConnectionTimeouts timeouts = new ConnectionTimeouts(limits, executors.maintenance(), bodyReads, http2,
                departures, refusals);
        resources.push(timeouts);
        Http1Config http1 = timeouts.listenTo(Http1Config.builder()
                        .maxPrologueLength(limits.maxRequestLine())
                        .maxHeadersSize(4 * limits.maxHeaderSize())
                        .validatePrologue(!protocols.relaysRequestTargets())
                        .validatePath(!protocols.relaysRequestTargets()))
                .build();
        java.util.function.IntFunction<WebServer> servers = listenPort -> {
            io.helidon.webserver.WebServerConfig.Builder builder = WebServer.builder()
                .host(bind)
                .port(listenPort)
                .shutdownHook(false)
                .shutdownGracePeriod(settings.get(CoreSettings.SHUTDOWN_GRACE))
                .directHandlers(ErrorHandling.directHandlers(refusals))
                .errorHandling(io.helidon.webserver.ErrorHandling.builder().logAllMessages(true).build()) // ParserFailures
                // Without it a response larger than one write waits for the client's delayed ACK (~40 ms, Nagle).
                .connectionOptions(timeouts.connectionOptions(SocketOptions.builder().tcpNoDelay(true).build(),
                        protocols.secure() || !protocols.selectors().isEmpty()))
                .maxTcpConnections(limits.maxConnections())
                .useNio(!protocols.usesBlockingSockets())
                .protocolsDiscoverServices(false)
                .addConnectionSelector(timeouts.selector(http1, protocols.upgraders()))
                .routing(routing);
            if (protocols.relaysContentCodings()) {
                builder.contentEncoding(RelayedContentCodings.INSTANCE);
            }
            protocols.selectors().forEach(selector -> builder.addConnectionSelector(timeouts.tracked(selector)));
            if (protocols.secure()) {
                builder.tls(protocols.tls());
            }
            return builder.build();
        };
        WebServer server = servers.apply(port);
        try {
            server.start();
        } catch (RuntimeException e) {
            closeAll(resources);
            throw new IllegalStateException("Cannot listen on " + bind + ":" + port + " (" + rootMessage(e) + ")", e);
        }
        if (!server.isRunning()) {
            closeAll(resources);
            throw new IllegalStateException("Cannot listen on " + bind + ":" + port + " (the server did not start)");
        }
        context.listeningPort.set(server.port());
        PodListener listener = new PodListener(server, servers, bind, PodPaths.of(segment).version(),
                protocols.probeSockets());
        listener.check(); // before any traffic: loads the classes of the connection path while descriptors are free
        health.register(new ListenerCheck(listener, timeouts, limits.maxConnections()));
        health.refreshEvery(executors.maintenance());
        executors.maintenance().scheduleWithFixedDelay(listener::check, 1, 1, java.util.concurrent.TimeUnit.SECONDS);
        Pod pod = new Pod(module, identity, listener, traffic, timeouts, health, shutdown, resources,
                settings.get(CoreSettings.SHUTDOWN_DELAY));
        watchParent(settings, executors);
        LOG.log(Level.INFO, String.format(Locale.ROOT, "%s pod %s listening on %s://%s:%d%s (started in %d ms)",
                module.displayName(), identity.podName(), protocols.secure() ? "https" : "http", hostForUrl(bind, identity),
                server.port(), PodPaths.of(segment).root(),
                (System.nanoTime() - t0) / 1_000_000));
        LOG.log(Level.INFO, String.format(Locale.ROOT, "At most %d connections (descriptor limit %s); timeouts: "
                        + "idle %s, headers %s, body %s", limits.maxConnections(),
                ConnectionLimits.descriptorLimit().stream().mapToObj(String::valueOf).findFirst().orElse("unknown"),
                limits.idleTimeout(), limits.headerTimeout(), limits.bodyTimeout()));
        return pod;
    }

    /** Worker, Cache and Integration pods: the shared sections, the heap dump, and the endpoint with its broadcast. */
    private static void installDiagnostics(ModuleContext context, List<Setting<?>> settings) {
        CoreDiagnostics.PodDiagnostics diagnostics = CoreDiagnostics.install(context.settings(), context.identity(),
                context.dataDir(), context.dataBudget(), context.executors(), context.health(), context.diagnostics(),
                settings);
        context.onStop(diagnostics.logLevels());
        context.onStop(diagnostics.recordings());
        Postmortem postmortem = Postmortem.install(context.settings(), context.dataDir(), context.dataBudget(),
                diagnostics.local(),
                context.diagnostics(), context.health(), context.executors().maintenance());
        if (postmortem != null) {
            context.onStop(postmortem);
        }
        // the module declares a TLS listener when it starts, after this: asked when pods are listed and called
        ListenerProtocols listener = context.listener();
        PodDiscovery discovery = Discoveries.create(context.settings(), context.identity(), context.port(),
                () -> listener.secure() ? "https" : "http");
        DiagnosticsBroadcast broadcast = new DiagnosticsBroadcast(discovery, BroadcastLimits.from(context.settings()),
                context.segment(), BroadcastMeters.of(context.metrics()),
                io.pylon.core.diagnostics.compare.CompareOptions.from(context.settings()), listener::peerTls);
        context.onStop(broadcast);
        new DiagnosticsEndpoint(new EnvironmentIdGuard(context.settings().find(CoreSettings.ENVIRONMENT_ID)),
                diagnostics.local(), diagnostics.heapDumper(), broadcast, diagnostics.recordings())
                .register(context.routes(), context.segment());
    }

    private static java.util.function.Predicate<String> chunkedPaths(PylonModule module, String segment) {
        String own = "/" + segment + "/";
        return path -> module.acceptsChunkedRequests() && !path.startsWith(own);
    }

    // Helidon logs a failed bind instead of throwing; checking first gives the operator one clear message.
    private static void ensureFree(String bind, int port, Deque<AutoCloseable> resources) {
        if (port == 0) {
            return;
        }
        try (java.net.ServerSocket socket = new java.net.ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new java.net.InetSocketAddress(InetAddress.getByName(bind), port));
        } catch (IOException e) {
            closeAll(resources);
            throw new IllegalStateException("Cannot listen on " + bind + ":" + port + " (" + rootMessage(e) + ")", e);
        }
    }

    private static PodIdentity identity(PylonModule module, Settings settings, String bind, int port, BuildInfo build) {
        String podName = settings.find(CoreSettings.POD_NAME);
        if (podName == null) {
            String suffix = port == 0 ? String.valueOf(ProcessHandle.current().pid()) : String.valueOf(port);
            podName = (module.name() + "-" + LocalHost.name() + "-" + suffix).toLowerCase(Locale.ROOT);
        }
        String podIp = settings.find(CoreSettings.POD_IP);
        if (podIp == null) {
            podIp = isWildcard(bind) ? LocalHost.address() : bind;
        }
        return new PodIdentity(podName, podIp, settings.find(CoreSettings.POD_NAMESPACE), settings.find(CoreSettings.NODE_NAME),
                settings.get(CoreSettings.ENVIRONMENT_NAME), module.name(), build.version());
    }

    private static Path dataDir(Settings settings, PodIdentity identity) {
        Path dir = settings.find(CoreSettings.DATA_DIR);
        if (dir == null) {
            dir = Path.of("data", identity.podName());
        }
        try {
            return Files.createDirectories(dir.toAbsolutePath());
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot create the data directory " + dir + " (setting "
                    + CoreSettings.DATA_DIR.key() + ")", e);
        }
    }

    private static void watchParent(Settings settings, PodExecutors executors) {
        Long parent = settings.find(CoreSettings.PARENT_PID);
        if (parent == null) {
            return;
        }
        ProcessHandle.of(parent).ifPresentOrElse(
                handle -> handle.onExit().thenRunAsync(() -> {
                    LOG.log(Level.INFO, "Parent process " + parent + " is gone; exiting");
                    System.exit(0);
                }, executors.maintenance()),
                () -> {
                    LOG.log(Level.INFO, "Parent process " + parent + " is gone; exiting");
                    System.exit(0);
                });
    }

    private static boolean isWildcard(String bind) {
        return bind.equals("0.0.0.0") || bind.equals("::") || bind.equals("[::]");
    }

    private static String hostForUrl(String bind, PodIdentity identity) {
        return isWildcard(bind) ? identity.podIp() : bind;
    }

    private static String rootMessage(Throwable t) {
        Throwable root = t;
        while (root.getCause() != null) {
            root = root.getCause();
        }
        return root.getClass().getSimpleName() + (root.getMessage() == null ? "" : ": " + root.getMessage());
    }

    private static void closeAll(Deque<AutoCloseable> resources) {
        while (!resources.isEmpty()) {
            try {
                resources.pop().close();
            } catch (Exception ignored) {
                // start-up already failed; the first failure is the one reported
            }
        }
    }

    private record Context(Settings settings, PodIdentity identity, String segment, Path dataDir, DataBudget dataBudget,
                           Routes routes,
                           HealthRegistry health, PodExecutors executors,
                           DiagnosticsRegistry diagnostics, PodMetrics metrics, ListenerProtocols listener,
                           ClientDepartures clientDepartures, Refusals refusals, BuildInfo buildInfo,
                           Deque<AutoCloseable> resources, AtomicInteger listeningPort, ShutdownCheck shutdown)
            implements ModuleContext {
        @Override
        public void onStop(AutoCloseable resource) {
            resources.push(resource);
        }

        @Override
        public void onStopping(Runnable action) {
            shutdown.onStopping(action);
        }

        @Override
        public int port() {
            return listeningPort.get();
        }
    }
}
