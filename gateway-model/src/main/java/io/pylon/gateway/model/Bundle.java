package io.pylon.gateway.model;

import org.jspecify.annotations.Nullable;

import java.util.List;

/**
 * A parsed bundle: the proxies a Worker serves, as one versioned set.
 *
 * @param version the deployment number the Manager gave it; null for a routes file written by hand
 */
public record Bundle(@Nullable Long version, List<Route> routes) {
    public Bundle {
        routes = List.copyOf(routes);
    }
}
