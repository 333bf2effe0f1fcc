package io.pylon.core.diagnostics.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.helidon.common.media.type.MediaTypes;
import io.helidon.http.Header;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.HttpMediaType;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.pylon.core.diagnostics.DiagnosticsBusyException;
import io.pylon.core.diagnostics.DiagnosticsQuery;
import io.pylon.core.diagnostics.DiagnosticsRefusedException;
import io.pylon.core.diagnostics.InvalidParameterException;
import io.pylon.core.diagnostics.LocalDiagnostics;
import io.pylon.core.diagnostics.SectionFailedException;
import io.pylon.core.diagnostics.ThreadDumpSection;
import io.pylon.core.http.ErrorBody;
import io.pylon.core.http.Json;
import org.jspecify.annotations.Nullable;

import java.util.List;

/** The ways the diagnostics endpoint writes its answers. */
final class DiagnosticsResponses {
    private static final Header TEXT = HeaderValues.createCached(HeaderNames.CONTENT_TYPE, "text/plain; charset=UTF-8");
    static final Header NO_STORE = HeaderValues.createCached(HeaderNames.CACHE_CONTROL, "no-store");
    private static final Status TOO_MANY_REQUESTS = Status.create(429, "Too Many Requests");

    private DiagnosticsResponses() {
    }

    /**
     * This pod's single-pod answer: JSON, or for {@code threaddump} with {@code Accept: text/plain} the raw dump.
     * Busy: 429 with Retry-After; a failed section: 500; both as JSON error bodies.
     */
    static void sendLocal(String name, ServerRequest req, ServerResponse res, LocalDiagnostics local) {
        sendLocal(LocalDiagnostics.GET, name, DiagnosticsQuery.EMPTY, req, res, local);
    }

    static void sendLocal(String method, String name, DiagnosticsQuery query, ServerRequest req, ServerResponse res,
                          LocalDiagnostics local) {
        ObjectNode answer;
        try {
            answer = local.answer(method, name, query);
        } catch (DiagnosticsBusyException e) {
            sendBusy(res, e);
            return;
        } catch (InvalidParameterException e) {
            sendInvalid(res, e);
            return;
        } catch (DiagnosticsRefusedException e) {
            sendRefused(res, e);
            return;
        } catch (UnsupportedOperationException e) {
            sendMethodNotAllowed(res, name, method, local.methods(name));
            return;
        } catch (SectionFailedException e) {
            ErrorBody.send(res, Status.INTERNAL_SERVER_ERROR_500, "server_error", e.getMessage());
            return;
        }
        res.header(NO_STORE);
        JsonNode dump = answer.get(ThreadDumpSection.KEY);
        if (ThreadDumpSection.NAME.equals(name) && dump != null && dump.isTextual() && prefersText(req)) {
            res.header(TEXT);
            res.send(dump.asText());
            return;
        }
        Json.send(res, answer);
    }

    static void sendBusy(ServerResponse res, DiagnosticsBusyException e) {
        res.header(HeaderNames.RETRY_AFTER, String.valueOf(e.retryAfterSeconds()));
        ErrorBody.send(res, TOO_MANY_REQUESTS, "too_many_requests", e.getMessage());
    }

    /** 400 naming the parameter and its bounds. */
    static void sendInvalid(ServerResponse res, InvalidParameterException e) {
        new ErrorBody("invalid_request", e.getMessage(), java.util.Map.of("parameter", e.parameter()))
                .send(res, Status.BAD_REQUEST_400);
    }

    static void sendRefused(ServerResponse res, DiagnosticsRefusedException e) {
        if (e.details() != null) {
            new ErrorBody(e.error(), e.getMessage(), e.details()).send(res, Status.create(e.status()));
        } else {
            ErrorBody.send(res, Status.create(e.status()), e.error(), e.getMessage());
        }
    }

    /** 405 with {@code Allow} for a method the name does not take. */
    static void sendMethodNotAllowed(ServerResponse res, String name, String method, List<String> allowed) {
        res.header(HeaderNames.ALLOW, String.join(", ", allowed));
        ErrorBody.send(res, Status.METHOD_NOT_ALLOWED_405, "method_not_allowed",
                "The diagnostics '" + clip(name) + "' take " + String.join(", ", allowed) + ", not " + clip(method) + ".");
    }

    /** An error of this pod standing between the caller and another pod (404, 502, 503, 504). */
    static void sendGatewayError(ServerResponse res, int status, @Nullable String description) {
        String error = switch (status) {
            case 404 -> "not_found";
            case 503 -> "service_unavailable";
            case 504 -> "gateway_timeout";
            default -> "bad_gateway";
        };
        ErrorBody.send(res, Status.create(status), error, description);
    }

    /** 404 for a name the pod does not offer, listing the ones it does. */
    static void sendUnknown(ServerResponse res, @Nullable String name, List<String> offered) {
        String shown = name == null || name.isEmpty() ? "No diagnostics name given" : "No diagnostics named '" + clip(name) + "' on this module";
        new ErrorBody("not_found", shown + "; available: " + String.join(", ", offered) + ".",
                java.util.Map.of("available", offered)).send(res, Status.NOT_FOUND_404);
    }

    static boolean prefersText(ServerRequest req) {
        if (!req.headers().contains(HeaderNames.ACCEPT)) {
            return false;
        }
        return req.headers().bestAccepted(MediaTypes.APPLICATION_JSON, MediaTypes.TEXT_PLAIN)
                .map(type -> HttpMediaType.create(type).test(MediaTypes.TEXT_PLAIN))
                .orElse(false);
    }

    private static String clip(String name) {
        return name.length() > 64 ? name.substring(0, 64) + "..." : name;
    }
}
