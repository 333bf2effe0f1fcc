package io.pylon.worker.proxy;

import org.jspecify.annotations.Nullable;

import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.ServerResponseHeaders;
import io.pylon.gateway.model.Cors;
import io.pylon.gateway.model.HeaderRules;
import io.pylon.gateway.model.KeyAuth;
import io.pylon.gateway.model.Policies;
import org.apache.hc.core5.http.ClassicHttpRequest;
import org.apache.hc.core5.http.Header;

import java.util.Iterator;
import java.util.Map;

/**
 * A proxy's header rules: removed, then set, on the request sent upstream (without the API key of {@code keyAuth}) and
 * on the response sent back (with the CORS policy's headers last). Stateless.
 */
final class HeaderTransforms {
    private HeaderTransforms() {
    }

    /**
     * Names the application whose key admitted the request; from a client it is never passed on ({@link OutboundRequest}
     * leaves it out).
     */
    static final String APPLICATION = "X-Pylon-Application";

    /**
     * The proxy's request rules, after the application the consumer's API key belongs to is named: under
     * {@code keyAuth} the key is the gateway's business, not the upstream's (its logs are not where a consumer's
     * credential should end up), and the upstream learns who called from {@link #APPLICATION}.
     *
     * @param outbound    from {@link OutboundRequest#create} given {@link #keyHeader}: without the key header and
     *                    without any {@link #APPLICATION} of the client's, so the application's is added, not set
     *                    (a set would scan every header again)
     * @param application the application whose key admitted the request; null: none
     */
    static void request(Policies policies, @Nullable String application, ClassicHttpRequest outbound) {
        if (application != null && !application.isEmpty()) {
            outbound.addHeader(APPLICATION, application);
        }
        request(policies.requestHeaders(), outbound);
    }

    /** The request header the proxy's {@code keyAuth} reads its key from, which is not passed on; null: none. */
    static @Nullable String keyHeader(Policies policies) {
        KeyAuth keyAuth = policies.keyAuth();
        return keyAuth == null ? null : keyAuth.header();
    }

    private static void request(HeaderRules rules, ClassicHttpRequest outbound) {
        if (rules.isEmpty()) {
            return;
        }
        for (String name : rules.remove()) {
            outbound.removeHeaders(name);
            removeUnderscoreSpellings(name, outbound);
        }
        for (Map.Entry<String, String> header : rules.add().entrySet()) {
            outbound.setHeader(header.getKey(), header.getValue());
            removeUnderscoreSpellings(header.getKey(), outbound);
        }
    }

    /**
     * Removes the client's headers that spell {@code name} with underscores for dashes ({@code X_User} for
     * {@code X-User}): a CGI, PHP, WSGI or Rack upstream reads both as one variable, so a rule that sets or removes a
     * header would not decide what the upstream sees ({@link OutboundRequest#OWN_NAMES} does the same for the
     * forwarding headers).
     */
    private static void removeUnderscoreSpellings(String name, ClassicHttpRequest outbound) {
        if (name.indexOf('-') < 0) {
            return;
        }
        for (Iterator<Header> headers = outbound.headerIterator(); headers.hasNext(); ) {
            String other = headers.next().getName();
            if (other.indexOf('_') >= 0 && other.replace('_', '-').equalsIgnoreCase(name)) {
                headers.remove();
            }
        }
    }

    static void response(Policies policies, @Nullable String origin, ServerResponseHeaders headers) {
        HeaderRules rules = policies.responseHeaders();
        for (String name : rules.remove()) {
            headers.remove(HeaderNames.create(name));
        }
        for (Map.Entry<String, String> header : rules.add().entrySet()) {
            headers.set(HeaderValues.create(header.getKey(), header.getValue()));
        }
        Cors cors = policies.cors();
        if (cors != null) {
            CorsHeaders.response(cors, origin, headers);
        }
    }
}
