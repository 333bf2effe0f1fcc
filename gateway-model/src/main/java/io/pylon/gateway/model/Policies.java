package io.pylon.gateway.model;

import org.jspecify.annotations.Nullable;

/**
 * A proxy's request policies besides its rate limit.
 *
 * @param rewritePrefix the path that replaces the route's prefix upstream; null: the prefix is kept (or stripped)
 * @param cors          null: no CORS handling (headers pass through as the upstream sends them)
 * @param keyAuth       null: no API key required
 */
public record Policies(HeaderRules requestHeaders, HeaderRules responseHeaders, @Nullable String rewritePrefix,
                       @Nullable Cors cors, IpRules ipRules, @Nullable KeyAuth keyAuth) {
    public static final Policies NONE = new Policies(HeaderRules.NONE, HeaderRules.NONE, null, null, IpRules.NONE, null);
}
