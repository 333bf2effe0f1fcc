package io.pylon.manager.api;

import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.pylon.core.http.Routes;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * {@code GET /apiops/openapi.yaml}: the OpenAPI 3 description of the management API (Bearer, any role), and
 * {@code GET /apiops/test/healthcheck}: the management API's liveness probe, plain {@code OK} without auth.
 */
public final class ApiDocsEndpoint {
    public static final String RESOURCE = "/apiops/openapi.yaml";

    private final byte[] document;

    public ApiDocsEndpoint() {
        try (InputStream in = ApiDocsEndpoint.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + RESOURCE);
            }
            this.document = in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public void register(Routes routes, Secured secured) {
        routes.get("/apiops/test/healthcheck", this::healthcheck);
        routes.get("/apiops/openapi.yaml", secured.viewer(this::openApi));
    }

    private void healthcheck(ServerRequest req, ServerResponse res) {
        res.header(HeaderNames.CONTENT_TYPE, "text/plain; charset=UTF-8");
        res.send("OK");
    }

    private void openApi(ServerRequest req, ServerResponse res, Principal principal) {
        res.header(HeaderNames.CONTENT_TYPE, "application/yaml; charset=UTF-8");
        res.send(document);
    }
}
