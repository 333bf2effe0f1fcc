package io.pylon.core.diagnostics;

import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.Header;
import io.helidon.http.Method;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.pylon.core.http.ErrorBody;
import io.pylon.core.http.PodPaths;
import io.pylon.core.http.Routes;

import java.util.Locale;
import java.util.Optional;

/**
 * {@code GET /<segment>/diagnostics/<name>}: checks the environment ID, then answers with this pod's own object
 * ({@code internal=true}) or hands the call to the {@link PodFanOut} (no {@code internal}, {@code internal=false}, or
 * {@code pod=<name>}). A heap dump is never broadcast: without {@code pod} this pod streams its own.
 */
public final class DiagnosticsEndpoint {
    private static final Header CHALLENGE = HeaderValues.createCached(HeaderNames.WWW_AUTHENTICATE,
            "EnvironmentId realm=\"diagnostics\"");

    private final EnvironmentIdGuard guard;
    private final LocalDiagnostics local;
    private final PodFanOut fanOut;

    public DiagnosticsEndpoint(EnvironmentIdGuard guard, LocalDiagnostics local, PodFanOut fanOut) {
        this.guard = guard;
        this.local = local;
        this.fanOut = fanOut;
    }

    public void register(Routes routes, String segment) {
        PodPaths paths = PodPaths.of(segment);
        routes.get(paths.diagnostics(), (req, res) -> unnamed(req, res));
        routes.get(paths.diagnostics() + "/", (req, res) -> unnamed(req, res));
        routes.get(paths.diagnostics("{name}"), this::answer);
    }

    private void unnamed(ServerRequest req, ServerResponse res) {
        if (authorised(req, res)) {
            DiagnosticsResponses.sendUnknown(res, null, local.names());
        }
    }

    private void answer(ServerRequest req, ServerResponse res) throws Exception {
        if (!authorised(req, res)) {
            return;
        }
        String name = req.path().pathParameters().get("name").toLowerCase(Locale.ROOT);
        if (!local.offers(name)) {
            DiagnosticsResponses.sendUnknown(res, name, local.names());
            return;
        }
        boolean namesPod = req.query().contains("pod");
        if (LocalDiagnostics.HEAPDUMP.equals(name)) {
            if (req.prologue().method() == Method.HEAD) {
                // HEAD would have to write a whole dump to learn its length: refused rather than done for nothing.
                res.header(HeaderNames.ALLOW, "GET");
                ErrorBody.send(res, Status.METHOD_NOT_ALLOWED_405, "method_not_allowed",
                        "A heap dump is only served to GET.");
                return;
            }
            if (namesPod) {
                fanOut.answer(name, req, res, local);
            } else {
                local.sendHeapDump(req, res);
            }
            return;
        }
        Optional<Boolean> internal = internal(req, res);
        if (internal.isEmpty()) {
            return;
        }
        if (internal.get()) {
            DiagnosticsResponses.sendLocal(name, req, res, local);
        } else {
            fanOut.answer(name, req, res, local);
        }
    }

    private boolean authorised(ServerRequest req, ServerResponse res) {
        Optional<String> presented = req.headers().first(HeaderNames.AUTHORIZATION);
        if (guard.accepts(presented.orElse(null))) {
            return true;
        }
        String description;
        if (!guard.configured()) {
            description = "This pod has no environment ID configured, so it refuses every diagnostics call.";
        } else if (presented.isEmpty()) {
            description = "The Authorization header with the environment ID is missing.";
        } else {
            description = "The Authorization header does not carry this pod's environment ID.";
        }
        res.header(CHALLENGE);
        ErrorBody.send(res, Status.UNAUTHORIZED_401, "unauthorized", description);
        return false;
    }

    private static Optional<Boolean> internal(ServerRequest req, ServerResponse res) {
        Optional<String> raw = req.query().first("internal").asOptional();
        if (raw.isEmpty() || raw.get().isEmpty()) {
            return Optional.of(false);
        }
        switch (raw.get().toLowerCase(Locale.ROOT)) {
            case "true":
                return Optional.of(true);
            case "false":
                return Optional.of(false);
            default:
                ErrorBody.send(res, Status.BAD_REQUEST_400, "invalid_request",
                        "The query parameter 'internal' must be true or false.");
                return Optional.empty();
        }
    }
}
