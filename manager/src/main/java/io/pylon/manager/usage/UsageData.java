package io.pylon.manager.usage;

import io.pylon.core.http.Routes;
import io.pylon.core.server.ModuleContext;
import io.pylon.manager.api.Secured;
import io.pylon.manager.db.Jdbc;
import io.pylon.manager.environments.EnvironmentStore;

import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;

/** Starts the Manager's side of usage: the Workers' reports, the admins' questions, the hourly pruning. */
public final class UsageData {
    private static final System.Logger LOG = System.getLogger(UsageData.class.getName());
    /** How long report ids are kept: a Worker that resends an acknowledged report later than this counts it twice. */
    static final Duration REPORT_IDS_KEPT = Duration.ofDays(3);

    private UsageData() {
    }

    /** @return the query the Portal's developer endpoints answer with */
    public static UsageQuery start(ModuleContext context, Jdbc jdbc, EnvironmentStore environments, Clock clock,
                                   Routes routes, Secured secured) {
        Duration retention = context.settings().get(UsageSettings.RETENTION);
        UsageStore store = new UsageStore(jdbc);
        UsageQuery query = new UsageQuery(store, clock, retention);
        new UsageReportEndpoint(environments, store, clock, retention).register(routes);
        new UsageEndpoints(query).register(routes, secured);
        context.every("Pruning usage", Duration.ofMinutes(1), Duration.ofMinutes(60), () -> {
            try {
                int deleted = store.prune(clock.instant().minus(retention), clock.instant().minus(REPORT_IDS_KEPT));
                if (deleted > 0) {
                    LOG.log(Level.INFO, "Usage pruned: " + deleted + " minute count(s) older than " + retention.toDays()
                            + " days");
                }
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "Pruning usage failed: " + e.getMessage());
            }
        });
        return query;
    }
}
