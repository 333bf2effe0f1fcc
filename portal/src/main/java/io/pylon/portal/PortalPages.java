package io.pylon.portal;

import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.pylon.core.http.ErrorBody;
import io.pylon.core.http.Routes;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Map;

/**
 * The Portal's pages: one HTML page and its ES modules from {@code portal-web/}, and Swagger UI's files from its
 * webjar (no CDN). Everything is read once at start; the set of files is fixed, so no path reaches the file system.
 * Every page answer carries a strict Content-Security-Policy (scripts and styles from this origin only). Immutable.
 */
final class PortalPages {
    static final String SWAGGER_UI = "META-INF/resources/webjars/swagger-ui/5.34.1/";
    static final String CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
            + "connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
    private static final Map<String, String> TYPES = Map.of("html", "text/html; charset=UTF-8",
            "js", "text/javascript; charset=UTF-8", "css", "text/css; charset=UTF-8");

    private final Map<String, byte[]> files = new HashMap<>();
    private final Runnable beforePage;
    private final ConnectSources connect;

    /** @param beforePage runs before the page is served (the Workers' origin for its policy is learned then) */
    PortalPages(Runnable beforePage, ConnectSources connect) {
        this.beforePage = beforePage;
        this.connect = connect;
        for (String name : new String[]{"index.html", "app.js", "api.js", "docs.js", "usage.js", "usage-chart.js", "app.css"}) {
            files.put("/assets/" + name, read("portal-web/" + name));
        }
        for (String name : new String[]{"swagger-ui-bundle.js", "swagger-ui.css"}) {
            files.put("/swagger-ui/" + name, read(SWAGGER_UI + name));
        }
    }

    private static byte[] read(String resource) {
        try (InputStream in = PortalPages.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + resource);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    void register(Routes routes) {
        routes.get("/", (req, res) -> {
            beforePage.run();
            // the filter set the policy before the Workers' origin may have been learned just now
            res.header("Content-Security-Policy", connect.csp());
            send(res, "/assets/index.html", "no-store");
        });
        routes.get("/assets/{file}", (req, res) -> file(req, res, "/assets/"));
        routes.get("/swagger-ui/{file}", (req, res) -> file(req, res, "/swagger-ui/"));
    }

    private void file(ServerRequest req, ServerResponse res, String folder) {
        String path = folder + req.path().pathParameters().get("file");
        if (!files.containsKey(path)) {
            ErrorBody.send(res, Status.NOT_FOUND_404, "not_found", "No such file.");
            return;
        }
        send(res, path, "no-cache");
    }

    private void send(ServerResponse res, String path, String cache) {
        String extension = path.substring(path.lastIndexOf('.') + 1);
        res.header(HeaderNames.CONTENT_TYPE, TYPES.get(extension));
        res.header(HeaderNames.CACHE_CONTROL, cache);
        res.send(files.get(path));
    }

    /** Security headers on every answer of the Portal; the policy admits calls to the Workers ("Try it"). */
    static void headers(io.helidon.webserver.http.HttpRouting.Builder routing, ConnectSources connect) {
        routing.addFilter((chain, req, res) -> {
            res.header("Content-Security-Policy", connect.csp());
            res.header("X-Content-Type-Options", "nosniff");
            res.header("Referrer-Policy", "no-referrer");
            res.header("X-Frame-Options", "DENY");
            chain.proceed();
        });
    }
}
