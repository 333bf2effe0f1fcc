package io.pylon.manager.portal;

import io.pylon.core.http.Routes;
import io.pylon.core.server.ModuleContext;
import io.pylon.manager.api.Secured;
import io.pylon.manager.audit.AuditLog;
import io.pylon.manager.auth.PasswordHasher;
import io.pylon.manager.auth.SignInSettings;
import io.pylon.manager.auth.SignInThrottle;
import io.pylon.manager.db.Jdbc;
import io.pylon.manager.deployments.DeploymentStore;
import io.pylon.manager.environments.EnvironmentStore;
import io.pylon.manager.proxies.ProxyStore;
import io.pylon.manager.usage.UsageQuery;

import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;

/** Starts the Manager's side of the developer portal: its endpoints, the Workers' key poll, clean-up. */
public final class PortalData {
    private static final System.Logger LOG = System.getLogger(PortalData.class.getName());
    /** How often a replica looks for key set changes another replica made. */
    private static final Duration KEY_REFRESH = Duration.ofMillis(250);

    private PortalData() {
    }

    public static void start(ModuleContext context, Jdbc jdbc, EnvironmentStore environments, ProxyStore proxies,
                             PasswordHasher hasher, AuditLog audit, Clock clock, Routes routes, Secured secured,
                             UsageQuery usage) {
        DeveloperStore developers = new DeveloperStore(jdbc);
        ApplicationStore applications = new ApplicationStore(jdbc);
        KeySetWatch keys = new KeySetWatch(applications);
        new DeveloperEndpoints(developers, applications, keys, hasher, audit, clock,
                context.settings().get(PortalSettings.AUTO_APPROVE_DEVELOPERS),
                context.settings().get(PortalSettings.SESSION_LIFETIME), new SignInThrottle(
                context.settings().get(SignInSettings.SOURCE_MAX_FAILURES),
                context.settings().get(SignInSettings.ACCOUNT_SOURCE_MAX_FAILURES),
                context.settings().get(SignInSettings.FAILURE_WINDOW), clock)).register(routes, secured);
        new CatalogEndpoints(applications, proxies, new DeploymentStore(jdbc)::deployedRevisions, environments)
                .register(routes, secured);
        new PortalAdminEndpoints(developers, applications, proxies, keys, audit, clock).register(routes, secured);
        new DeveloperUsageEndpoint(new DeveloperAccess(developers, clock), applications, usage).register(routes, secured);
        new PlanEndpoints(new PlanStore(jdbc), applications, proxies, keys, audit, clock).register(routes, secured);
        KeyPollEndpoint keyPolls = new KeyPollEndpoint(environments, keys);
        keyPolls.register(routes);
        context.onStopping(keyPolls::stop);
        context.every("Refreshing the key set", KEY_REFRESH, KEY_REFRESH, keys::refresh);
        context.every("Purging ended Portal sessions", Duration.ofMinutes(5), Duration.ofMinutes(60), () -> {
            try {
                developers.purgeSessions(clock.instant());
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "Purging ended Portal sessions failed: " + e.getMessage());
            }
        });
    }
}
