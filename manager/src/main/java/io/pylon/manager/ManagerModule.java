package io.pylon.manager;

import org.jspecify.annotations.Nullable;

import io.pylon.core.config.Setting;
import io.pylon.core.config.Settings;
import io.pylon.core.http.Routes;
import io.pylon.core.pod.CoreSettings;
import io.pylon.core.server.ModuleContext;
import io.pylon.core.server.PylonModule;
import io.pylon.manager.api.ApiDocsEndpoint;
import io.pylon.manager.api.BearerAuth;
import io.pylon.manager.api.NoStoreFilter;
import io.pylon.manager.api.SourceAddress;
import io.pylon.manager.api.Secured;
import io.pylon.manager.audit.AuditEndpoint;
import io.pylon.manager.audit.AuditLog;
import io.pylon.manager.audit.AuditSettings;
import io.pylon.manager.auth.Accounts;
import io.pylon.manager.auth.FirstAdmin;
import io.pylon.manager.auth.FirstAdminSettings;
import io.pylon.manager.auth.HashingPool;
import io.pylon.manager.auth.LockoutSettings;
import io.pylon.manager.auth.PasswordHasher;
import io.pylon.manager.auth.PasswordSettings;
import io.pylon.manager.auth.PersonalTokenEndpoints;
import io.pylon.manager.auth.SessionEndpoints;
import io.pylon.manager.auth.SignInSettings;
import io.pylon.manager.auth.SignInThrottle;
import io.pylon.manager.auth.TokenEndpoint;
import io.pylon.manager.auth.TokenRepository;
import io.pylon.manager.auth.TokenService;
import io.pylon.manager.auth.TokenSettings;
import io.pylon.manager.auth.UserEndpoints;
import io.pylon.manager.auth.UserRepository;
import io.pylon.manager.db.Database;
import io.pylon.manager.db.DatabaseCheck;
import io.pylon.manager.db.DatabaseSettings;
import io.pylon.manager.db.Jdbc;
import io.pylon.manager.environments.BootstrapEnvironment;
import io.pylon.manager.environments.BootstrapSettings;
import io.pylon.manager.environments.EnvironmentEndpoints;
import io.pylon.manager.environments.EnvironmentStore;
import io.pylon.manager.deployments.BundleWatch;
import io.pylon.manager.deployments.Deployer;
import io.pylon.manager.deployments.DeploymentEndpoints;
import io.pylon.manager.deployments.DeploymentStore;
import io.pylon.manager.deployments.EnvironmentConfigEndpoints;
import io.pylon.manager.deployments.GatewayPollEndpoint;
import io.pylon.manager.deployments.GridBundleCopy;
import io.pylon.manager.environments.Environment;
import io.pylon.cache.client.GridClient;
import io.pylon.cache.client.GridClientSettings;
import org.jspecify.annotations.Nullable;
import io.pylon.manager.proxies.OpenApiImport;
import io.pylon.manager.proxies.ProxyDefinitions;
import io.pylon.manager.proxies.ProxyEndpoints;
import io.pylon.manager.proxies.ProxySettings;
import io.pylon.manager.proxies.ProxyStore;
import io.pylon.manager.portal.PortalData;
import io.pylon.manager.usage.UsageData;
import io.pylon.manager.usage.UsageQuery;
import io.pylon.manager.flows.FlowsEndpoints;
import io.pylon.manager.flows.FlowsSettings;

import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The Manager: management API (tokens, accounts, environments) and the System / Server Management screen.
 *
 * <p>Threading: {@code start} runs once on the starting thread and publishes the management API and its routes through
 * volatile fields, which request threads and tests read afterwards.
 */
public final class ManagerModule implements PylonModule {
    public static final String NAME = "manager";
    private static final System.Logger LOG = System.getLogger(ManagerModule.class.getName());
    /** Expired and revoked tokens are kept this long (for the audit trail's sake) before they are deleted. */
    private static final Duration TOKEN_GRACE = Duration.ofDays(1);
    /** How often a replica looks for deployments another replica wrote. */
    private static final Duration DEPLOYMENT_REFRESH = Duration.ofMillis(250);
    /** How often the grid's copy of the bundle is checked (rewritten when the grid lost it or missed a version). */
    private static final Duration GRID_COPY_SYNC = Duration.ofSeconds(5);

    private volatile @Nullable ManagementApi api;
    private volatile @Nullable Routes routes;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String displayName() {
        return "Manager";
    }

    @Override
    public int defaultPort() {
        return 8080;
    }

    @Override
    public List<Setting<?>> settings() {
        List<Setting<?>> all = new ArrayList<>(DatabaseSettings.all());
        all.addAll(TokenSettings.all());
        all.addAll(LockoutSettings.all());
        all.addAll(SignInSettings.all());
        all.addAll(PasswordSettings.all());
        all.addAll(FirstAdminSettings.all());
        all.addAll(BootstrapSettings.all());
        all.addAll(AuditSettings.all());
        all.addAll(ProxySettings.all());
        all.addAll(FlowsSettings.all());
        all.addAll(io.pylon.manager.portal.PortalSettings.all());
        all.addAll(GridClientSettings.all());
        all.addAll(io.pylon.manager.usage.UsageSettings.all());
        return List.copyOf(all);
    }

    /** Every route of the started pod, extensions' included, as {@code "METHOD /path"} (see {@link Routes#registered}). */
    public List<String> registeredRoutes() {
        return started(routes).registered();
    }

    /** The management API of the started pod: the seams other code on the Manager uses. */
    public ManagementApi api() {
        return started(api);
    }

    private static <T> T started(@Nullable T value) {
        if (value == null) {
            throw new IllegalStateException("The Manager module has not started");
        }
        return value;
    }

    @Override
    public void start(ModuleContext context) throws Exception {
        Settings settings = context.settings();
        Clock clock = Clock.systemUTC();
        ManagerMeters meters = new ManagerMeters(context.metrics().registry());
        Database database = Database.open(settings, context.dataDir(),
                context.metrics().enabled() ? context.metrics().registry() : null);
        context.onStop(database);
        context.health().register(new DatabaseCheck(database));

        Jdbc jdbc = database.jdbc();
        AuditLog audit = new AuditLog(jdbc, clock, meters::audited);
        TokenService tokens = new TokenService(new TokenRepository(jdbc), settings.get(TokenSettings.LIFETIME),
                settings.get(TokenSettings.CHECK_CACHE), clock);
        HashingPool hashing = new HashingPool(SignInSettings.hashThreads(settings),
                settings.get(SignInSettings.HASH_QUEUE));
        context.onStop(hashing);
        hashing.register(context.executors());
        PasswordHasher hasher = new PasswordHasher(settings.get(PasswordSettings.ARGON2_MEMORY),
                settings.get(PasswordSettings.ARGON2_ITERATIONS), settings.get(PasswordSettings.ARGON2_PARALLELISM),
                hashing);
        SignInThrottle throttle = new SignInThrottle(settings.get(SignInSettings.SOURCE_MAX_FAILURES),
                settings.get(SignInSettings.ACCOUNT_SOURCE_MAX_FAILURES), settings.get(SignInSettings.FAILURE_WINDOW),
                clock);
        Accounts accounts = new Accounts(new UserRepository(jdbc), tokens, hasher, audit, throttle, clock,
                settings.get(LockoutSettings.MAX_FAILURES), settings.get(LockoutSettings.LOCK_DURATION));
        EnvironmentStore environments = new EnvironmentStore(jdbc);
        BearerAuth auth = new BearerAuth(tokens::authenticate);

        FirstAdmin.ensure(accounts, settings.get(FirstAdminSettings.USERNAME),
                settings.find(FirstAdminSettings.PASSWORD), System.out);
        BootstrapEnvironment.ensure(environments, audit, clock, settings.get(CoreSettings.ENVIRONMENT_NAME),
                settings.get(BootstrapSettings.ENVIRONMENT_TYPE), settings.find(CoreSettings.ENVIRONMENT_ID),
                settings.get(BootstrapSettings.ENVIRONMENT_URLS));

        Routes routes = context.routes();
        NoStoreFilter.install(routes.routing());
        SourceAddress.install(routes.routing(), SignInSettings.trustedProxies(settings));
        Secured secured = new Secured(auth);
        new TokenEndpoint(accounts, tokens, audit).register(routes);
        new SessionEndpoints(accounts, tokens, audit, clock).register(routes, secured);
        new PersonalTokenEndpoints(tokens, audit, clock).register(routes, secured);
        new UserEndpoints(accounts, clock).register(routes, secured);
        new EnvironmentEndpoints(environments, audit, clock).register(routes, secured);
        new AuditEndpoint(audit).register(routes, secured);
        ProxyStore proxyStore = startControlPlane(context, jdbc, environments, audit, clock, routes, secured);
        UsageQuery usage = UsageData.start(context, jdbc, environments, clock, routes, secured);
        PortalData.start(context, jdbc, environments, proxyStore, hasher, audit, clock, routes, secured, usage);
        new FlowsEndpoints(settings.get(FlowsSettings.INTEGRATION_URL), context.segment(), audit).register(routes, secured);
        new ApiDocsEndpoint().register(routes, secured);

        Duration retention = settings.get(AuditSettings.RETENTION);
        context.every("Purging tokens and audit records", Duration.ofMinutes(1), Duration.ofMinutes(60),
                () -> purge(tokens, audit, clock, retention));
        api = new ManagementApi(auth, environments, audit, accounts, tokens);
        for (ManagerExtension extension : java.util.ServiceLoader.load(ManagerExtension.class)) {
            extension.start(context, api);
        }
        this.routes = routes;
    }

    // API proxies, deployments and the Workers' long-poll; a replica notices another's deployments within
    // REFRESH (one grouped query), its own at once
    private static ProxyStore startControlPlane(ModuleContext context, Jdbc jdbc, EnvironmentStore environments,
                                          AuditLog audit, Clock clock, Routes routes, Secured secured) {
        ProxyStore proxies = new ProxyStore(jdbc);
        DeploymentStore deployments = new DeploymentStore(jdbc);
        ProxyDefinitions definitions = new ProxyDefinitions(context.segment());
        BundleWatch watch = new BundleWatch(deployments);
        GridBundleCopy gridCopy = gridCopy(context, environments, watch, clock);
        Deployer deployer = new Deployer(deployments, watch, definitions, clock);
        new ProxyEndpoints(proxies, deployments::deployedRevisions, definitions,
                new OpenApiImport(context.settings().get(ProxySettings.IMPORT_URL_HOSTS)), audit, clock)
                .register(routes, secured);
        new DeploymentEndpoints(environments, proxies, deployments, deployer, watch, audit, clock, gridCopy)
                .register(routes, secured);
        new EnvironmentConfigEndpoints(environments, proxies, definitions, deployer, deployments, audit, clock)
                .register(routes, secured);
        GatewayPollEndpoint gatewayPolls = new GatewayPollEndpoint(environments, deployments, watch, clock);
        gatewayPolls.register(routes);
        context.onStopping(gatewayPolls::stop);
        context.every("Refreshing deployments", DEPLOYMENT_REFRESH, DEPLOYMENT_REFRESH, watch::refresh);
        context.every("Forgetting old gateway pods", Duration.ofMinutes(10), Duration.ofMinutes(60), () -> {
            try {
                deployments.forgetPods(clock.instant().minus(Duration.ofDays(1)));
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "Forgetting old gateway pods failed: " + e.getMessage());
            }
        });
        return proxies;
    }

    // the bundle of the Manager's own environment, copied to that environment's data grid when one is configured
    private static @Nullable GridBundleCopy gridCopy(ModuleContext context, EnvironmentStore environments,
                                                      BundleWatch watch, Clock clock) {
        Settings settings = context.settings();
        if (!GridClientSettings.configured(settings)) {
            return null;
        }
        String name = settings.get(CoreSettings.ENVIRONMENT_NAME);
        String id = environments.find(name).map(Environment::environmentId).orElse(null);
        if (id == null || id.isEmpty()) {
            LOG.log(Level.WARNING, "No environment '" + name + "' with an ID: its gateway bundle is not copied to the "
                    + "data grid at " + settings.find(GridClientSettings.ADDRESSES));
            return null;
        }
        GridClient grid = GridClient.start(settings);
        GridBundleCopy copy = new GridBundleCopy(grid, watch, name, id, clock);
        context.onStop(copy);
        watch.onChange(copy::changed);
        context.every("Copying the gateway bundle to the data grid", Duration.ofSeconds(1), GRID_COPY_SYNC,
                () -> copy.changed(name));
        return copy;
    }

    private static void purge(TokenService tokens, AuditLog audit, Clock clock, Duration retention) {
        try {
            int deletedTokens = tokens.purgeBefore(clock.instant().minus(TOKEN_GRACE));
            int deletedEvents = audit.purge(clock.instant().minus(retention));
            if (deletedTokens + deletedEvents > 0) {
                LOG.log(Level.INFO, "Deleted " + deletedTokens + " expired or revoked tokens and " + deletedEvents
                        + " audit events older than " + retention.toDays() + " days");
            }
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "Token and audit clean-up failed: " + e.getMessage());
        }
    }
}
