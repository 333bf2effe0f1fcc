package io.pylon.worker.proxy;

import io.pylon.gateway.model.InvalidProxyException;
import io.pylon.gateway.model.Route;
import io.pylon.gateway.model.UpstreamTls;
import io.pylon.worker.routes.RouteTable;
import org.jspecify.annotations.Nullable;

import java.lang.System.Logger.Level;
import java.util.HashMap;
import java.util.Map;

/**
 * The {@link UpstreamTlsContext} of every {@code upstreamTls} setting of the routes in force: loaded when a table is
 * about to be applied (files that cannot be read refuse the table, naming the proxy and the field), dropped when no
 * route names them any more. At most {@link io.pylon.gateway.model.ProxyParser#MAX_UPSTREAM_TLS} per table, plus
 * those of the table before it (requests still in flight on it).
 *
 * <p>Threading: {@link #prepare} runs on the thread applying a table (a routes reload, the Manager follower) and
 * {@link #reloadIfChanged} on the maintenance executor, both under this object's monitor; request threads read
 * {@link #get} from an immutable map in a volatile field.
 */
public final class UpstreamTlsContexts {
    private static final System.Logger LOG = System.getLogger(UpstreamTlsContexts.class.getName());

    private volatile Map<UpstreamTls, UpstreamTlsContext> inForce = Map.of();
    private Map<UpstreamTls, UpstreamTlsContext> previous = Map.of();

    /**
     * Loads the contexts {@code table} needs (reusing those loaded already) and puts them in force.
     *
     * @throws InvalidProxyException when a proxy's files cannot be used; nothing changes then
     */
    public synchronized void prepare(RouteTable table) throws InvalidProxyException {
        Map<UpstreamTls, UpstreamTlsContext> next = new HashMap<>();
        for (Route route : table.routes()) {
            UpstreamTls settings = route.forwarding().upstreamTls();
            if (settings.isDefault() || next.containsKey(settings)) {
                continue;
            }
            UpstreamTlsContext context = inForce.get(settings);
            if (context == null) {
                try {
                    context = UpstreamTlsContext.load(settings);
                } catch (UpstreamTlsContext.InvalidTlsFilesException e) {
                    throw new InvalidProxyException("Proxy '" + route.name() + "': field '" + e.field() + "' "
                            + e.getMessage() + ".", route.name(), e.field());
                }
            }
            next.put(settings, context);
        }
        for (Route route : table.routes()) {
            if (!route.forwarding().upstreamTls().verify()) {
                LOG.log(Level.WARNING, "Proxy '" + route.name() + "': upstreamTls.verify is false: the certificates "
                        + "of its https upstreams are not checked (any server on the way can answer for them)");
            }
        }
        previous = inForce;
        inForce = Map.copyOf(next);
    }

    /** The context of a setting; null for {@link UpstreamTls#DEFAULTS} (HttpClient's own, the JDK's trust store). */
    @Nullable UpstreamTlsContext get(UpstreamTls settings) {
        if (settings.isDefault()) {
            return null;
        }
        UpstreamTlsContext context = inForce.get(settings);
        if (context == null) {
            synchronized (this) {
                context = previous.get(settings);
            }
        }
        return context;
    }

    /** Periodic: each context reads its files again and takes a valid change. */
    public synchronized void reloadIfChanged() {
        for (UpstreamTlsContext context : inForce.values()) {
            context.reloadIfChanged();
        }
    }
}
