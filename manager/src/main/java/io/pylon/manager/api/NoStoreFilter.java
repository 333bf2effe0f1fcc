package io.pylon.manager.api;

import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.HttpRouting;

/**
 * Management responses carry tokens, environment IDs and account state: no cache (browser, proxy) may keep them.
 */
public final class NoStoreFilter {
    private NoStoreFilter() {
    }

    public static void install(HttpRouting.Builder routing) {
        routing.addFilter((chain, req, res) -> {
            if (req.path().path().startsWith("/apiops/")) {
                res.header(HeaderNames.CACHE_CONTROL, "no-store");
            }
            chain.proceed();
        });
    }
}
