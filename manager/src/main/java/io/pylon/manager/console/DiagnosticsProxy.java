package io.pylon.manager.console;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webclient.api.HttpClientResponse;
import io.helidon.webserver.http.ServerResponse;
import io.pylon.core.http.Json;
import io.pylon.core.http.PodPaths;
import io.pylon.manager.api.Principal;
import io.pylon.manager.environments.Environment;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Forwards one diagnostics call to the Worker or Cache of an environment with the environment ID as Authorization,
 * and streams the answer back as it arrives (a heap dump is never held in the Manager's memory). The only bodies it
 * reads are {@code all} for a viewer, from which it removes the env sections, and {@code compare} for a viewer, from
 * which it removes the values of drifting environment variables (their names and hash groups stay).
 */
final class DiagnosticsProxy {
    private static final System.Logger LOG = System.getLogger(DiagnosticsProxy.class.getName());
    private static final DateTimeFormatter FILE_TIME = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC);
    private static final HeaderName CONTENT_DISPOSITION = HeaderNames.CONTENT_DISPOSITION;

    private final Upstream upstream;
    private final PodPaths paths;
    private final Duration readTimeout;
    private final Duration heapDumpTimeout;

    DiagnosticsProxy(Upstream upstream, String segment, Duration readTimeout, Duration heapDumpTimeout) {
        this.upstream = upstream;
        this.paths = PodPaths.of(segment);
        this.readTimeout = readTimeout;
        this.heapDumpTimeout = heapDumpTimeout;
    }

    /** Answers the request; returns how it went, for the audit log ("success", "failure (502 module_unreachable)"...). */
    String forward(ServerResponse res, Principal caller, Environment environment, DiagnosticTarget target) {
        String base = ModuleUrls.of(environment, target.module());
        if (base == null) {
            throw new ConsoleException(Status.CONFLICT_409, "module_not_configured",
                    "Environment " + environment.name() + " names no URL for its " + target.module() + ".");
        }
        if (environment.environmentId() == null || environment.environmentId().isBlank()) {
            throw new ConsoleException(Status.CONFLICT_409, "environment_id_missing",
                    "Environment " + environment.name() + " has no environment ID, so its pods refuse diagnostics.");
        }
        String url = base + paths.diagnostics(target.name());
        Map<String, String> query = new LinkedHashMap<>();
        if (target.pod() != null) {
            query.put("pod", target.pod());
        }
        if (target.internal() != null && !target.isHeapDump()) {
            query.put("internal", target.internal().toString());
        }
        query.putAll(target.parameters());
        // the pods count heavy calls per caller: each user of the console is one, whatever address it comes from
        query.put("caller", caller.username());
        String what = "the " + target.module() + " of environment " + environment.name();
        Duration timeout = target.isHeapDump() ? heapDumpTimeout : readTimeout;
        try (HttpClientResponse response = upstream.send(target.method(), url, query, environment.environmentId(), null,
                timeout, what)) {
            int status = response.status().code();
            if (status == 401) {
                throw new ConsoleException(Status.BAD_GATEWAY_502, "environment_id_rejected",
                        "The " + target.module() + " pods of environment " + environment.name()
                                + " refused the environment ID stored in the Manager; update or rotate it.");
            }
            res.status(Status.create(status));
            if (status == 200 && target.carriesEnv() && !caller.isAdmin()) {
                sendWithoutEnv(res, response, what, url);
                return "success";
            }
            copyHeader(response, res, HeaderNames.CONTENT_TYPE);
            copyHeader(response, res, HeaderNames.ALLOW);
            copyHeader(response, res, HeaderNames.RETRY_AFTER);
            if (status == 200 && target.name().equals("jfr")) {
                // a recording's download: its file name and length as the pod gave them
                copyHeader(response, res, HeaderNames.CONTENT_DISPOSITION);
                copyHeader(response, res, HeaderNames.CONTENT_LENGTH);
            }
            if (status == 200 && target.isHeapDump()) {
                copyHeader(response, res, HeaderNames.CONTENT_LENGTH);
                res.header(CONTENT_DISPOSITION, "attachment; filename=\"" + heapDumpFileName(environment, target) + "\"");
            }
            stream(response.inputStream(), res, what, url);
            return status == 200 ? "success" : "failure (" + status + ")";
        }
    }

    private static void copyHeader(HttpClientResponse from, ServerResponse to, HeaderName name) {
        from.headers().first(name).ifPresent(value -> to.header(name, value));
    }

    private static void sendWithoutEnv(ServerResponse res, HttpClientResponse response, String what, String url) {
        JsonNode body;
        try (InputStream in = response.inputStream()) {
            body = Json.MAPPER.readTree(in);
        } catch (IOException | RuntimeException e) {
            throw Upstream.failure(e, what, url);
        }
        if (body instanceof ObjectNode root) {
            root.remove("env");
            for (JsonNode variable : root.path("drift").path("env")) {
                for (JsonNode group : variable.path("groups")) {
                    if (group instanceof ObjectNode groupObject) {
                        groupObject.remove("value");
                    }
                }
            }
            for (JsonNode pod : root.path("pods")) {
                if (pod instanceof ObjectNode podObject) {
                    podObject.remove("env");
                }
            }
        }
        res.header(Json.CONTENT_TYPE_JSON);
        res.send(Json.bytes(body));
    }

    private static void stream(InputStream in, ServerResponse res, String what, String url) {
        long copied = 0;
        try (in; OutputStream out = res.outputStream()) {
            byte[] buffer = new byte[64 * 1024];
            int n;
            while (true) {
                try {
                    n = in.read(buffer);
                } catch (IOException | UncheckedIOException e) {
                    // the pod stopped sending: the status line is gone, so all that is left is to cut the response
                    LOG.log(System.Logger.Level.WARNING, "Diagnostics from " + url + " broke off after " + copied
                            + " bytes: " + Upstream.rootMessage(e));
                    throw new UncheckedIOException(new IOException(what + " broke off the answer"));
                }
                if (n < 0) {
                    break;
                }
                out.write(buffer, 0, n);
                // pass each piece on at once: the browser shows progress and the Manager holds at most one buffer
                out.flush();
                copied += n;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String heapDumpFileName(Environment environment, DiagnosticTarget target) {
        String who = target.pod() != null ? target.pod() : target.module();
        return (environment.name() + "-" + who + "-" + FILE_TIME.format(Instant.now()) + ".hprof")
                .replaceAll("[^A-Za-z0-9._-]", "_");
    }
}
