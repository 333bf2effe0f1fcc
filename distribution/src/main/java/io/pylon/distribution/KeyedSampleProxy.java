package io.pylon.distribution;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.pylon.core.http.Json;
import io.pylon.gateway.model.CanonicalJson;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;

/**
 * {@code pylon up}'s sample API for the Portal: {@code /sample-keyed} to the same {@link SampleUpstream} as
 * {@link SampleProxy}, but with the {@code keyAuth} policy (a call needs a developer's API key) and an OpenAPI document
 * (the Portal's docs page and its "Try it" console). Imported from the document and then given its policy through
 * the Manager's API, as an operator would; left alone on a restart when it is already so.
 */
final class KeyedSampleProxy {
    static final String NAME = "sample-keyed";
    static final String PREFIX = "/sample-keyed";

    /** What developers read on the Portal: one operation, the upstream's echo. */
    static final String OPENAPI = """
            {"openapi":"3.0.3","info":{"title":"Sample API with keys","version":"1","description":"The sample echo of \
            pylon up, behind an API key: subscribe an application on the Portal, then call it with the key."},\
            "paths":{"/hello":{"get":{"summary":"Say hello","description":"Answers with the request the upstream saw.",\
            "responses":{"200":{"description":"The request as the upstream saw it"}}}}}}""";

    private KeyedSampleProxy() {
    }

    /** Creates the proxy or brings it up to date; the caller deploys it. */
    static void ensure(HttpClient http, String managerUrl, String token, String upstreamUrl)
            throws IOException, InterruptedException {
        ObjectNode wanted = definition(upstreamUrl);
        HttpResponse<String> current = SampleProxy.send(http, managerUrl, "GET", "/apiops/proxies/" + NAME, token, null);
        if (current.statusCode() == 200) {
            JsonNode stored = Json.MAPPER.readTree(current.body());
            if (stored.path("hasOpenApi").asBoolean() && stored.path("definition").equals(CanonicalJson.sorted(wanted))) {
                return;
            }
        } else {
            SampleProxy.expect(current, 404);
        }
        ObjectNode imported = Json.MAPPER.createObjectNode();
        imported.put("document", OPENAPI);
        imported.put("name", NAME);
        imported.put("pathPrefix", PREFIX);
        imported.putArray("upstreams").add(upstreamUrl);
        imported.put("comment", "pylon up");
        HttpResponse<String> done = SampleProxy.send(http, managerUrl, "POST", "/apiops/proxies/import", token,
                imported.toString());
        if (done.statusCode() != 200) {
            SampleProxy.expect(done, 201);
        }
        // the document is kept with every later revision; the policy and the prefix handling are the operator's
        SampleProxy.expect(SampleProxy.send(http, managerUrl, "PUT", "/apiops/proxies/" + NAME + "?comment=pylon%20up",
                token, wanted.toString()), 200);
    }

    static ObjectNode definition(String upstreamUrl) {
        ObjectNode definition = Json.MAPPER.createObjectNode();
        definition.put("name", NAME);
        definition.put("description", "The sample API of pylon up, with API keys");
        definition.put("pathPrefix", PREFIX);
        definition.put("stripPrefix", true);
        definition.putArray("upstreams").add(upstreamUrl);
        definition.putArray("methods").add("GET");
        definition.putObject("keyAuth");
        return definition;
    }
}
