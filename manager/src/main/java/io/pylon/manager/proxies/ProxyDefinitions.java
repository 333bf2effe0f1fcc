package io.pylon.manager.proxies;

import com.fasterxml.jackson.databind.JsonNode;
import io.pylon.gateway.model.CanonicalJson;
import io.pylon.gateway.model.InvalidProxyException;
import io.pylon.gateway.model.ProxyParser;
import io.pylon.manager.api.ApiException;

import java.time.Duration;

/**
 * Checks a proxy definition with the parser every Worker runs before it applies a bundle, so that what the Manager
 * accepts, a Worker can apply. A refusal is a 400 naming the proxy and the field. Stateless.
 */
public final class ProxyDefinitions {
    private final ProxyParser parser;

    public ProxyDefinitions(String segment) {
        // the timeouts only fill in what a definition leaves out; the Manager stores the definition as written
        this.parser = new ProxyParser(segment, Duration.ofSeconds(1), Duration.ofSeconds(1));
    }

    public ProxyParser parser() {
        return parser;
    }

    /** The definition, validated, fields sorted (the stored form). */
    public JsonNode validate(JsonNode definition) {
        try {
            parser.parseProxy(definition);
        } catch (InvalidProxyException e) {
            throw invalid(e);
        }
        return CanonicalJson.sorted(definition);
    }

    public static ApiException invalid(InvalidProxyException e) {
        return ApiException.aboutField(io.helidon.http.Status.BAD_REQUEST_400, "invalid_proxy", e.getMessage(), e.field());
    }
}
