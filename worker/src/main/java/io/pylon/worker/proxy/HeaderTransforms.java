package io.pylon.worker.proxy;

import org.jspecify.annotations.Nullable;

import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.ServerResponseHeaders;
import io.pylon.gateway.model.Cors;
import io.pylon.gateway.model.HeaderRules;
import io.pylon.gateway.model.Policies;
import org.apache.hc.core5.http.ClassicHttpRequest;

import java.util.Map;

/**
 * A proxy's header rules: removed, then set, on the request sent upstream and on the response sent back (with the
 * CORS policy's headers last). Stateless.
 */
final class HeaderTransforms {
    private HeaderTransforms() {
    }

    static void request(HeaderRules rules, ClassicHttpRequest outbound) {
        if (rules.isEmpty()) {
            return;
        }
        for (String name : rules.remove()) {
            outbound.removeHeaders(name);
        }
        for (Map.Entry<String, String> header : rules.add().entrySet()) {
            outbound.setHeader(header.getKey(), header.getValue());
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
