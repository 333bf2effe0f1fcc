package io.pylon.core.metrics;

import io.helidon.http.Header;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.pylon.core.http.PodPaths;
import io.pylon.core.http.Routes;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Locale;

/**
 * {@code GET /<segment>/management/metrics}: every meter of the pod, unauthenticated like health (scraped from inside
 * the cluster; no label carries a secret or a request's own path). The Prometheus text format by default, OpenMetrics
 * when the scraper accepts {@code application/openmetrics-text} (Prometheus asks for it first). Not registered when
 * metrics are disabled, so the path answers 404.
 */
public final class MetricsEndpoint {
    static final String OPENMETRICS = "application/openmetrics-text; version=1.0.0; charset=utf-8";
    static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";
    private static final Header NO_CACHE = HeaderValues.createCached(HeaderNames.CACHE_CONTROL, "no-store");

    private final PodMetrics metrics;

    public MetricsEndpoint(PodMetrics metrics) {
        this.metrics = metrics;
    }

    public void register(Routes routes, String segment) {
        if (metrics.enabled()) {
            routes.get(PodPaths.of(segment).metrics(), this::answer);
        }
    }

    private void answer(ServerRequest req, ServerResponse res) throws IOException {
        String contentType = wantsOpenMetrics(req) ? OPENMETRICS : PROMETHEUS_TEXT;
        ByteArrayOutputStream body = new ByteArrayOutputStream(32 * 1024);
        metrics.scrape(body, contentType);
        res.header(HeaderNames.CONTENT_TYPE, contentType);
        res.header(NO_CACHE);
        res.send(body.toByteArray());
    }

    // Any mention will do: Prometheus sends OpenMetrics first with a q-value, and the text format is the fallback.
    private static boolean wantsOpenMetrics(ServerRequest req) {
        return req.headers().all(HeaderNames.ACCEPT, java.util.List::of).stream()
                .anyMatch(value -> value.toLowerCase(Locale.ROOT).contains("application/openmetrics-text"));
    }
}
