package io.pylon.core.http;

import io.helidon.http.DirectHandler;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.RequestException;
import io.helidon.http.Status;
import io.helidon.webserver.http.DirectHandlers;
import io.helidon.webserver.http.HttpRouting;

import java.lang.System.Logger.Level;

/**
 * Errors never carry a stack trace or internals: an unexpected exception is logged (type and stack, on the server)
 * and answered 500 with a generic JSON body; protocol errors that happen before routing (oversized request line or
 * headers, malformed requests) are answered with a JSON body and the right status.
 */
public final class ErrorHandling {
    private static final System.Logger LOG = System.getLogger(ErrorHandling.class.getName());

    private ErrorHandling() {
    }

    public static void install(HttpRouting.Builder routing) {
        routing.error(RequestException.class, (req, res, e) -> {
            Status status = e.status();
            ErrorBody.send(res, status, errorCode(status), status.reasonPhrase());
        });
        routing.error(Throwable.class, (req, res, t) -> {
            LOG.log(Level.ERROR, "Unexpected failure on " + req.prologue().method().text() + " " + req.path().path(), t);
            ErrorBody.send(res, Status.INTERNAL_SERVER_ERROR_500, "server_error", "An unexpected error occurred.");
        });
    }

    /** Answers for errors raised by the HTTP layer itself, before any route runs. */
    public static DirectHandlers directHandlers() {
        DirectHandler handler = (request, eventType, status, headers, message) -> {
            Status effective = effectiveStatus(status, message);
            String body = new String(Json.bytes(ErrorBody.of(errorCode(effective), effective.reasonPhrase())),
                    java.nio.charset.StandardCharsets.UTF_8);
            return DirectHandler.TransportResponse.builder()
                    .status(effective)
                    .headers(headers)
                    .header(HeaderValues.create(HeaderNames.CONTENT_TYPE, "application/json"))
                    .keepAlive(false)
                    .entity(body)
                    .build();
        };
        DirectHandlers.Builder builder = DirectHandlers.builder();
        for (DirectHandler.EventType type : DirectHandler.EventType.values()) {
            builder.addHandler(type, handler);
        }
        return builder.build();
    }

    // Helidon reports an oversized prologue or header block as 400 with a message; answer what RFC 9110/6585 say.
    private static Status effectiveStatus(Status status, String message) {
        if (status.code() == 400 && message != null) {
            String m = message.toLowerCase(java.util.Locale.ROOT);
            if (m.contains("prologue") && (m.contains("length") || m.contains("too long") || m.contains("exceed"))) {
                return Status.REQUEST_URI_TOO_LONG_414;
            }
            if (m.contains("header") && (m.contains("size") || m.contains("too large") || m.contains("exceed") || m.contains("length"))) {
                return Status.REQUEST_HEADER_FIELDS_TOO_LARGE_431;
            }
        }
        return status;
    }

    static String errorCode(Status status) {
        return switch (status.code()) {
            case 400 -> "bad_request";
            case 401 -> "unauthorized";
            case 403 -> "forbidden";
            case 404 -> "not_found";
            case 405 -> "method_not_allowed";
            case 413 -> "payload_too_large";
            case 414 -> "uri_too_long";
            case 429 -> "too_many_requests";
            case 431 -> "request_header_fields_too_large";
            case 503 -> "service_unavailable";
            default -> status.code() >= 500 ? "server_error" : "error";
        };
    }
}
