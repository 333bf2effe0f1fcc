package io.pylon.manager.console;

import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.Header;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.pylon.core.http.ErrorBody;
import io.pylon.core.http.Routes;

import java.nio.charset.StandardCharsets;

/**
 * Serves the web UI: {@code /} is the page (revalidated on every visit), {@code /ui/<version>/...} the scripts and
 * styles it loads, cached for a year because the version in their URL is a hash of their content. Every answer
 * carries a strict Content-Security-Policy: the page runs only its own scripts and talks only to this Manager.
 */
public final class WebUi {
    static final String ASSET_PREFIX = "/ui/";
    private static final Header CSP = HeaderValues.createCached(HeaderNames.create("Content-Security-Policy"),
            "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; "
                    + "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'");
    private static final Header NOSNIFF = HeaderValues.createCached(HeaderNames.create("X-Content-Type-Options"), "nosniff");
    private static final Header NO_REFERRER = HeaderValues.createCached(HeaderNames.create("Referrer-Policy"), "no-referrer");
    private static final Header DENY_FRAMES = HeaderValues.createCached(HeaderNames.create("X-Frame-Options"), "DENY");
    private static final Header REVALIDATE = HeaderValues.createCached(HeaderNames.CACHE_CONTROL, "no-cache");
    private static final Header IMMUTABLE = HeaderValues.createCached(HeaderNames.CACHE_CONTROL,
            "public, max-age=31536000, immutable");

    private final WebAssets assets;
    private final byte[] page;
    private final String pageEtag;

    public WebUi() {
        this(WebAssets.load());
    }

    WebUi(WebAssets assets) {
        this.assets = assets;
        String html = new String(assets.file("index.html"), StandardCharsets.UTF_8);
        this.page = html.replace("%ASSETS%", ASSET_PREFIX + assets.version()).getBytes(StandardCharsets.UTF_8);
        this.pageEtag = "\"" + assets.version() + "\"";
    }

    public void register(Routes routes) {
        routes.get("/", this::page);
        routes.get("/index.html", this::page);
        routes.get(ASSET_PREFIX + "*", this::asset);
    }

    private void page(ServerRequest req, ServerResponse res) {
        send(req, res, page, "index.html", pageEtag, REVALIDATE);
    }

    private void asset(ServerRequest req, ServerResponse res) {
        String rest = req.path().path().substring(ASSET_PREFIX.length());
        int slash = rest.indexOf('/');
        String file = slash < 0 ? null : rest.substring(slash + 1);
        byte[] bytes = file == null || file.equals("index.html") || file.contains("..") ? null : assets.file(file);
        if (file == null || bytes == null) {
            ErrorBody.send(res, Status.NOT_FOUND_404, "not_found", "No resource at " + req.path().path());
            return;
        }
        boolean current = rest.substring(0, slash).equals(assets.version());
        // an old version's URL still works (a page loaded before a redeploy) but must not be cached as that version
        send(req, res, bytes, file, "\"" + assets.version() + "\"", current ? IMMUTABLE : REVALIDATE);
    }

    private static void send(ServerRequest req, ServerResponse res, byte[] body, String name, String etag, Header cache) {
        res.header(cache);
        res.header(HeaderNames.ETAG, etag);
        res.header(NOSNIFF);
        res.header(NO_REFERRER);
        res.header(DENY_FRAMES);
        res.header(CSP);
        if (req.headers().first(HeaderNames.IF_NONE_MATCH).map(etag::equals).orElse(false)) {
            res.status(Status.NOT_MODIFIED_304);
            res.send();
            return;
        }
        res.header(HeaderNames.CONTENT_TYPE, WebAssets.contentType(name));
        res.send(body);
    }
}
