package io.pylon.core.health;

import io.helidon.common.media.type.MediaTypes;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.Header;
import io.helidon.http.HttpMediaType;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.pylon.core.http.Json;
import io.pylon.core.http.PodPaths;
import io.pylon.core.http.Routes;
import org.jspecify.annotations.Nullable;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * {@code GET /<segment>/management/health} (every check), {@code .../health/live} and {@code .../health/ready}:
 * 200 when UP, 503 when DOWN; JSON by default, {@code OK}/{@code DOWN} as text when the client prefers text/plain.
 *
 * <p>Threading: request threads answer concurrently; each route keeps its last rendered report in an atomic reference
 * (two threads rendering one new report at once both render it; either result is kept).
 */
public final class HealthEndpoint {
    private static final Header TEXT = HeaderValues.createCached(HeaderNames.CONTENT_TYPE, "text/plain; charset=UTF-8");
    private static final Header NO_CACHE = HeaderValues.createCached(HeaderNames.CACHE_CONTROL, "no-store");
    private final HealthRegistry registry;
    private final String module;

    /** The JSON of the last report; the registry returns the same report while no check result changed. */
    private record Rendered(HealthReport report, byte[] json) {
    }

    public HealthEndpoint(HealthRegistry registry, String module) {
        this.registry = registry;
        this.module = module;
    }

    public void register(Routes routes, String segment) {
        PodPaths paths = PodPaths.of(segment);
        route(routes, paths.health(), registry::all);
        route(routes, paths.live(), () -> registry.probe(HealthCheck.Probe.LIVENESS));
        route(routes, paths.ready(), () -> registry.probe(HealthCheck.Probe.READINESS));
    }

    private void route(Routes routes, String path, Supplier<HealthReport> evaluation) {
        AtomicReference<Rendered> rendered = new AtomicReference<>();
        routes.get(path, (req, res) -> answer(req, res, evaluation, rendered));
    }

    private void answer(ServerRequest req, ServerResponse res, Supplier<HealthReport> evaluation,
                        AtomicReference<Rendered> rendered) {
        HealthReport report = evaluation.get();
        res.status(report.isUp() ? Status.OK_200 : Status.SERVICE_UNAVAILABLE_503);
        res.header(NO_CACHE);
        if (prefersText(req)) {
            res.header(TEXT);
            res.send(report.isUp() ? "OK" : "DOWN");
            return;
        }
        res.header(Json.CONTENT_TYPE_JSON);
        res.send(json(report, rendered));
    }

    private byte[] json(HealthReport report, AtomicReference<Rendered> rendered) {
        @Nullable Rendered last = rendered.get();   // null until the first answer
        if (last != null && last.report() == report) {
            return last.json();
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("status", report.status().name());
        body.put("module", module);
        body.put("checks", report.checksAsMap());
        byte[] json = Json.bytes(body);
        rendered.set(new Rendered(report, json));
        return json;
    }

    static boolean prefersText(ServerRequest req) {
        if (!req.headers().contains(HeaderNames.ACCEPT)) {
            return false;
        }
        return req.headers().bestAccepted(MediaTypes.APPLICATION_JSON, MediaTypes.TEXT_PLAIN)
                .map(type -> HttpMediaType.create(type).test(MediaTypes.TEXT_PLAIN))
                .orElse(false);
    }
}
