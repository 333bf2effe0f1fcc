package io.pylon.worker.proxy;

import org.jspecify.annotations.Nullable;

import io.pylon.gateway.model.Cors;
import io.pylon.gateway.model.Policies;
import io.pylon.worker.keys.KeySet;

import java.util.ArrayList;
import java.util.List;

/**
 * The Portal's "Try it" through a proxy's CORS policy: a proxy published to the Portal admits the origin of its
 * environment's Portal (from the key set, so publishing and unpublishing take effect without a deployment), with its
 * key header and {@code Content-Type} allowed, and {@code X-Request-Id} exposed (the console shows it, for a developer
 * to quote when a call fails). Any other origin is left to the proxy's own policy. Stateless.
 */
final class PortalCors {
    private static final List<String> ALLOWED_HEADERS = List.of("Content-Type", "Accept");

    private PortalCors() {
    }

    /** The policies with the Portal's origin admitted, when the request comes from it; else {@code policies}. */
    static Policies effective(String proxy, Policies policies, KeySet keys, @Nullable String origin) {
        if (origin == null) {
            return policies;
        }
        String portal = keys.portalOrigin(proxy);
        if (portal == null || !portal.equalsIgnoreCase(origin)) {
            return policies;
        }
        Cors own = policies.cors();
        if (own != null && own.allowsOrigin(origin) && policies.keyAuth() == null) {
            return policies;
        }
        List<String> origins = new ArrayList<>(own == null ? List.of() : own.allowOrigins());
        origins.add(portal);
        List<String> headers = new ArrayList<>(own == null ? List.of() : own.allowHeaders());
        headers.addAll(ALLOWED_HEADERS);
        if (policies.keyAuth() != null) {
            headers.add(policies.keyAuth().header());
        }
        List<String> exposed = new ArrayList<>(own == null ? List.of() : own.exposeHeaders());
        if (exposed.stream().noneMatch(RequestId.NAME.defaultCase()::equalsIgnoreCase)) {
            exposed.add(RequestId.NAME.defaultCase());
        }
        Cors merged = own == null ? new Cors(origins, List.of(), headers, exposed, false, null)
                : new Cors(origins, own.allowMethods(), headers, exposed, own.allowCredentials(), own.maxAge());
        return new Policies(policies.requestHeaders(), policies.responseHeaders(), policies.rewritePrefix(), merged,
                policies.ipRules(), policies.keyAuth());
    }
}
