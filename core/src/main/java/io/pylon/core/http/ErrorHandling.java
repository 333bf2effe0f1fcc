package io.pylon.core.http;

import io.helidon.http.DirectHandler;
import io.helidon.http.HttpException;
import io.helidon.http.ServerResponseHeaders;
import io.helidon.http.RequestException;
import io.helidon.http.Status;
import io.helidon.webserver.http.DirectHandlers;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import org.jspecify.annotations.Nullable;

import java.lang.System.Logger.Level;

/**
 * Errors never carry a stack trace or internals: an unexpected exception is logged (type and stack, on the server)
 * and answered 500 with a generic JSON body; protocol errors that happen before routing (oversized request line or
 * headers, malformed requests) are answered with a JSON body and the right status. Every error answer, also those
 * written before routing, carries {@code Cache-Control: no-store} (see {@link ErrorBody}).
 */
public final class ErrorHandling {
    private static final System.Logger LOG = System.getLogger(ErrorHandling.class.getName());
    private static final String HTTP1_CONNECTION = "io.helidon.webserver.http1.Http1Connection";
    private static final Status HEADERS_TOO_LARGE = Status.create(431, "Request Header Fields Too Large");

    private ErrorHandling() {
    }

    /**
     * Refuses a request whose header block exceeds {@code maxHeaders} bytes with 431 (RFC 6585). Helidon's own
     * parser limit sits higher and answers a plain 400 without saying why, so the limit operators see is this one.
     * The same pass refuses a header line with an empty name (400), which Helidon's parser lets through.
     */
    public static void limitHeaders(HttpRouting.Builder routing, int maxHeaders, Refusals refusals) {
        routing.addFilter((chain, req, res) -> {
            int bytes = headerBytes(req.headers());
            if (bytes < 0) {
                // Helidon 4.5 takes ": value" for a field with an empty name; a field name is one or more token characters
                res.header(io.helidon.http.HeaderValues.CONNECTION_CLOSE);
                refusals.send(req, res, Status.BAD_REQUEST_400, "bad_request",
                        "A header line has no field name before its colon.");
                return;
            }
            if (bytes > maxHeaders) {
                refusals.send(req, res, HEADERS_TOO_LARGE, errorCode(HEADERS_TOO_LARGE),
                        "The request headers exceed " + maxHeaders + " bytes.");
                return;
            }
            chain.proceed();
        });
    }

    /**
     * Whether {@link #limitHeaders}' filter refuses a request with these headers. What takes a request before routing
     * (a protocol upgrade) asks it, and leaves such a request to routing, whose filter answers it.
     */
    public static boolean refusesHeaders(io.helidon.http.Headers headers, int maxHeaders) {
        int bytes = headerBytes(headers);
        return bytes < 0 || bytes > maxHeaders;
    }

    /** The header block's bytes as sent (each line's name, colon, space, value, CRLF); -1 when a field has no name. */
    private static int headerBytes(io.helidon.http.Headers headers) {
        int size = 0;
        for (io.helidon.http.Header header : headers) {
            if (header.name().isEmpty()) {
                return -1;
            }
            // Helidon keeps a name's lines as one header with a value each: each line counts its name
            for (String value : header.allValues()) {
                size += header.name().length() + 4 + value.length();
            }
        }
        return size;
    }

    public static void install(HttpRouting.Builder routing) {
        routing.error(Throwable.class, ErrorHandling::respond);
    }

    /**
     * Answers a failure of a filter or route: the status of an HTTP exception, 408 for a request body that stopped
     * arriving, 400 for a request body Helidon could not parse (its chunk parser throws plain runtime exceptions), 500 with a generic body for everything else, which is
     * the only case logged above FINE.
     */
    public static void respond(ServerRequest req, ServerResponse res, Throwable t) {
        if (isUndecodablePath(t)) {
            // Helidon decodes the path to match routes; on a listener that leaves paths to the module unchecked
            // (ListenerProtocols.relayRequestTargets) a malformed percent-encoding fails there
            ErrorBody.send(res, Status.BAD_REQUEST_400, "bad_request", "The path has a malformed percent-encoding.");
        } else if (t instanceof RequestException e) {
            ErrorBody.send(res, e.status(), errorCode(e.status()), e.status().reasonPhrase());
        } else if (t instanceof HttpException e && e.status().code() < 500) {
            ErrorBody.send(res, e.status(), errorCode(e.status()), e.status().reasonPhrase());
        } else if (RequestBodyTimeoutException.in(t)) {
            LOG.log(Level.DEBUG, () -> "Request body timed out on " + req.prologue().method().text() + " "
                    + req.path().path());
            ErrorBody.send(res, Status.REQUEST_TIMEOUT_408, "request_timeout",
                    "The request body stopped arriving: no bytes within the body timeout.");
        } else if (isMalformedBody(t)) {
            LOG.log(Level.DEBUG, () -> "Malformed request body on " + req.prologue().method().text() + " "
                    + req.path().path() + ": " + t);
            ErrorBody.send(res, Status.BAD_REQUEST_400, "bad_request",
                    "The request body is malformed (chunked encoding or length).");
        } else {
            LOG.log(Level.ERROR, "Unexpected failure on " + req.prologue().method().text() + " " + req.path().path(), t);
            ErrorBody.send(res, Status.INTERNAL_SERVER_ERROR_500, "server_error", "An unexpected error occurred.");
        }
    }

    /** Whether {@code t} is, or was caused by, Helidon's failure to percent-decode a request path. */
    static boolean isUndecodablePath(Throwable t) {
        for (Throwable cause = t; cause != null; cause = cause.getCause()) {
            if (cause instanceof IllegalArgumentException) {
                for (StackTraceElement frame : cause.getStackTrace()) {
                    if (frame.getClassName().startsWith("io.helidon.common.uri.UriPath")
                            && frame.getMethodName().equals("decode")) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    /** Whether {@code t} was thrown while Helidon's HTTP/1 connection read the request body off the socket. */
    public static boolean isMalformedBody(Throwable t) {
        for (Throwable cause = t; cause != null; cause = cause.getCause()) {
            for (StackTraceElement frame : cause.getStackTrace()) {
                if (frame.getClassName().equals(HTTP1_CONNECTION) && frame.getMethodName().startsWith("read")) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Answers for errors raised by the HTTP layer itself, before any route runs; {@code refusals} learns of each. */
    public static DirectHandlers directHandlers(Refusals refusals) {
        ParserFailures.install();
        ListenerCloseRace.install();
        DirectHandler handler = new JsonDirectHandler(refusals);
        DirectHandlers.Builder builder = DirectHandlers.builder();
        for (DirectHandler.EventType type : DirectHandler.EventType.values()) {
            builder.addHandler(type, handler);
        }
        return builder.build();
    }

    private static final class JsonDirectHandler implements DirectHandler {
        private final Refusals refusals;

        JsonDirectHandler(Refusals refusals) {
            this.refusals = refusals;
        }

        @Override
        public TransportResponse handle(TransportRequest request, EventType eventType, Status status,
                                        ServerResponseHeaders headers, Throwable thrown) {
            return handle(request, eventType, status, headers, thrown == null ? null : thrown.getMessage());
        }

        // Helidon passes the parser's message only here; it stays internal (it decides the status, it is not sent).
        @Override
        public TransportResponse handle(TransportRequest request, EventType eventType, Status status,
                                        ServerResponseHeaders headers, Throwable thrown, System.Logger logger) {
            return handle(request, eventType, status, headers, thrown);
        }

        @Override
        public TransportResponse handle(TransportRequest request, EventType eventType, Status status,
                                        ServerResponseHeaders headers, @Nullable String message) {
            String parsed = ParserFailures.take(); // taken in any case: it must not outlive this refusal
            String reason = message != null ? message : parsed;
            Status effective = effectiveStatus(unreadableRequest(request, status), reason);
            String requestId = refusals.requestId();
            byte[] body = Json.bytes(new ErrorBody(errorCode(effective), RefusalReasons.describe(effective, reason),
                    null, requestId));
            TransportResponse.Builder answer = TransportResponse.builder()
                    .status(effective)
                    .headers(headers)
                    .header(Json.CONTENT_TYPE_JSON)
                    .header(ErrorBody.NO_STORE)
                    .keepAlive(false)
                    .entity(body);
            if (requestId != null) {
                answer.header(Refusals.REQUEST_ID, requestId);
            }
            refusals.answering(request, effective.code(), requestId);
            return answer.build();
        }
    }

    /**
     * Helidon answers some malformed requests with 500: a method with a character no HTTP token may hold ({@code G@T})
     * fails in {@code Method.create}, and the HTTP/1 connection turns any exception that escapes its parsing into an
     * internal error without the request (it could not read one). Routes cannot be the cause (their failures reach
     * {@link #install}'s handlers), so such an answer is about the client's bytes: 400. Helidon still logs the cause.
     */
    private static Status unreadableRequest(DirectHandler.TransportRequest request, Status status) {
        return status.code() == 500 && request == DirectHandler.TransportRequest.empty() ? Status.BAD_REQUEST_400 : status;
    }

    // Helidon reports an oversized prologue as 400 or 414 and an oversized header block as 400; answer 414 and 431
    // as RFC 9110 and RFC 6585 say. The message is Helidon's or the parser's reason; it is never sent.
    private static Status effectiveStatus(Status status, String message) {
        if (status.code() == 400 && message != null) {
            String m = message.toLowerCase(java.util.Locale.ROOT);
            if (m.contains("content-encoding header present")) {
                return Status.UNSUPPORTED_MEDIA_TYPE_415; // RFC 9110: the answer to a content coding not taken
            }
            if (m.contains("prologue") && (m.contains("length") || m.contains("too long") || m.contains("exceed"))) {
                return Status.REQUEST_URI_TOO_LONG_414;
            }
            if (m.contains("header size exceeded")) {
                return HEADERS_TOO_LARGE;
            }
        }
        // Before routing, Helidon answers bytes its parser chokes on (a NUL in the method, an unknown transfer
        // coding, an unsupported version) with 500, 501 or 505: a request that cannot be parsed is the client's error.
        // 503 stays: it is the server's overload answer, not a verdict on the request.
        if (status.code() >= 500 && status.code() != 503) {
            LOG.log(Level.DEBUG, () -> "Unparsable request answered 400 instead of " + status.code() + ": " + message);
            return Status.BAD_REQUEST_400;
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
            case 408 -> "request_timeout";
            case 413 -> "payload_too_large";
            case 411 -> "length_required";
            case 414 -> "uri_too_long";
            case 415 -> "unsupported_media_type";
            case 429 -> "too_many_requests";
            case 431 -> "request_header_fields_too_large";
            case 503 -> "service_unavailable";
            default -> status.code() >= 500 ? "server_error" : "error";
        };
    }
}
