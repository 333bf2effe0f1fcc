package io.pylon.core.diagnostics.web;

import org.jspecify.annotations.Nullable;

import io.helidon.http.Header;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.Method;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.pylon.core.broadcast.AggregateOutput;
import io.pylon.core.broadcast.DiagnosticsBroadcast;
import io.pylon.core.broadcast.LocalPod;
import io.pylon.core.broadcast.PeerClient;
import io.pylon.core.broadcast.PodFailedException;
import io.pylon.core.diagnostics.DiagnosticsBusyException;
import io.pylon.core.diagnostics.DiagnosticsQuery;
import io.pylon.core.diagnostics.DiagnosticsRefusedException;
import io.pylon.core.diagnostics.EnvironmentIdGuard;
import io.pylon.core.diagnostics.FlightRecordings;
import io.pylon.core.diagnostics.InvalidParameterException;
import io.pylon.core.diagnostics.HeapDumper;
import io.pylon.core.diagnostics.LocalDiagnostics;
import io.pylon.core.diagnostics.postmortem.PostmortemSection;
import io.pylon.core.http.ErrorBody;
import io.pylon.core.http.Json;
import io.pylon.core.http.PodPaths;
import io.pylon.core.http.Routes;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * {@code GET /<segment>/diagnostics/<name>} (and {@code PUT}/{@code DELETE}/{@code POST} for the names that change
 * something: loggers, jfr), the one place that decides how a diagnostics call is answered:
 * <ol>
 *   <li>the environment ID is checked (401), then the name (404 listing the names offered);</li>
 *   <li>{@code jfr?download=<id>}: a recording streamed, this pod's or with {@code pod=} another's; never broadcast;</li>
 *   <li>{@code compare}: always a comparison of every pod; {@code internal=true} or {@code pod=} is 400 (one pod has
 *       nothing to be compared with), another method 405;</li>
 *   <li>{@code heapdump}: this pod's dump is streamed, or with {@code pod=<other>} the other pod's is passed on;
 *       a heap dump is never broadcast, and HEAD is refused (it would have to write a whole dump);</li>
 *   <li>a method the name does not take: 405 with {@code Allow}; a bad query parameter: 400 naming it (checked
 *       here before a broadcast or a forward, and by the pod that answers);</li>
 *   <li>{@code internal=true}: this pod's own single-pod object (what peers are asked during a broadcast);</li>
 *   <li>{@code postmortem/<id>} (or {@code postmortem?id=}): one capture of the black box, this pod's or with
 *       {@code pod=} another's; never broadcast, an id is one pod's;</li>
 *   <li>{@code pod=<name>}: that pod's single-pod object, through this pod when it is another one;</li>
 *   <li>otherwise: a broadcast over every pod of the module.</li>
 * </ol>
 * Everything below this class takes plain values: the local answer ({@link LocalDiagnostics}), the broadcast and the
 * forward ({@link DiagnosticsBroadcast}) know nothing of Helidon's request and response. A broadcast gets this pod's
 * part as a {@link LocalPod} read here once; its only call back into this pod's diagnostics is this pod's own answer.
 */
public final class DiagnosticsEndpoint {
    private static final Header CHALLENGE = HeaderValues.createCached(HeaderNames.WWW_AUTHENTICATE,
            "EnvironmentId realm=\"diagnostics\"");
    /** Aggregates up to this size leave in one write; larger ones stream in pieces of about this size. */
    private static final int OUTPUT_BUFFER = 1024 * 1024;
    private static final String JFR = "jfr";
    /** The one name with items, and the query parameter an item's path stands for. */
    private static final String ITEMS = PostmortemSection.NAME;
    private static final String ITEM_PARAMETER = "id";
    private static final java.util.regex.Pattern CALLER_NAME = java.util.regex.Pattern.compile("[A-Za-z0-9._:@-]{1,64}");

    private final EnvironmentIdGuard guard;
    private final LocalDiagnostics local;
    private final HeapDumper heapDumper;
    private final DiagnosticsBroadcast broadcast;
    private final @Nullable FlightRecordings recordings;

    public DiagnosticsEndpoint(EnvironmentIdGuard guard, LocalDiagnostics local, HeapDumper heapDumper,
                               DiagnosticsBroadcast broadcast) {
        this(guard, local, heapDumper, broadcast, null);
    }

    /** @param recordings the pod's flight recordings, whose downloads are streams; null when the pod has none */
    public DiagnosticsEndpoint(EnvironmentIdGuard guard, LocalDiagnostics local, HeapDumper heapDumper,
                               DiagnosticsBroadcast broadcast, @Nullable FlightRecordings recordings) {
        this.guard = guard;
        this.local = local;
        this.heapDumper = heapDumper;
        this.broadcast = broadcast;
        this.recordings = recordings;
    }

    public void register(Routes routes, String segment) {
        PodPaths paths = PodPaths.of(segment);
        routes.get(paths.diagnostics(), (req, res) -> unnamed(req, res));
        routes.get(paths.diagnostics() + "/", (req, res) -> unnamed(req, res));
        routes.get(paths.diagnostics("{name}"), (req, res) -> answer(req, res, null));
        for (Method method : List.of(Method.PUT, Method.DELETE, Method.POST)) {
            routes.route(method, paths.diagnostics("{name}"), (req, res) -> answer(req, res, null));
        }
        routes.get(paths.diagnostics("{name}", "{item}"), this::item);
    }

    // GET postmortem/<id>: the same call as postmortem?id=<id>; no other name has items.
    private void item(ServerRequest req, ServerResponse res) throws IOException {
        if (!authorised(req, res)) {
            return;
        }
        String name = req.path().pathParameters().get("name").toLowerCase(Locale.ROOT);
        if (!ITEMS.equals(name) || !local.offers(name)) {
            ErrorBody.send(res, Status.NOT_FOUND_404, "not_found", "Only postmortem has items: "
                    + "GET diagnostics/postmortem/<capture id>.");
            return;
        }
        if (req.query().contains(ITEM_PARAMETER)) {
            ErrorBody.send(res, Status.BAD_REQUEST_400, "invalid_request",
                    "Give the capture id in the path or in the query parameter 'id', not both.");
            return;
        }
        answer(req, res, req.path().pathParameters().get("item"));
    }

    private void unnamed(ServerRequest req, ServerResponse res) {
        if (authorised(req, res)) {
            DiagnosticsResponses.sendUnknown(res, null, local.names());
        }
    }

    /** @param item the capture id of {@code postmortem/<id>}, else null */
    private void answer(ServerRequest req, ServerResponse res, @Nullable String item) throws IOException {
        if (item == null && !authorised(req, res)) {
            return;
        }
        String name = req.path().pathParameters().get("name").toLowerCase(Locale.ROOT);
        if (!local.offers(name)) {
            DiagnosticsResponses.sendUnknown(res, name, local.names());
            return;
        }
        Optional<String> pod = req.query().first("pod").asOptional();
        boolean other = pod.isPresent() && !pod.get().equals(local.identity().podName());
        String method = req.prologue().method() == Method.HEAD ? LocalDiagnostics.GET : req.prologue().method().text();
        if (LocalDiagnostics.COMPARE.equals(name)) {
            compare(method, pod, req, res);
            return;
        }
        if (LocalDiagnostics.HEAPDUMP.equals(name) && !LocalDiagnostics.GET.equals(method)) {
            DiagnosticsResponses.sendMethodNotAllowed(res, name, method, List.of(LocalDiagnostics.GET));
            return;
        }
        if (LocalDiagnostics.HEAPDUMP.equals(name)) {
            if (req.prologue().method() == Method.HEAD) {
                res.header(HeaderNames.ALLOW, "GET");
                ErrorBody.send(res, Status.METHOD_NOT_ALLOWED_405, "method_not_allowed",
                        "A heap dump is only served to GET.");
            } else if (other) {
                forward(pod.get(), name, req, res);
            } else {
                heapDumper.send(req, res);
            }
            return;
        }
        Optional<Boolean> internal = internal(req, res);
        if (internal.isEmpty()) {
            return;
        }
        Map<String, List<String>> parameters = query(req);
        if (item != null) {
            parameters.put(ITEM_PARAMETER, List.of(item));
        }
        if (!nameCaller(parameters, req, res)) {
            return;
        }
        DiagnosticsQuery query = DiagnosticsQuery.of(parameters);
        if (JFR.equals(name) && LocalDiagnostics.GET.equals(method) && query.text("download").isPresent()) {
            // a recording is a file, streamed like a heap dump: this pod's own, or another's passed on; never broadcast
            download(pod, other, query, req, res);
            return;
        }
        // a capture id names one pod's capture: this pod's, or another's with pod=; never broadcast
        boolean oneCapture = ITEMS.equals(name) && query.text(ITEM_PARAMETER).isPresent();
        if (internal.get() || pod.isPresent() && !other || oneCapture && !other) {
            DiagnosticsResponses.sendLocal(method, name, query, req, res, local);
            return;
        }
        // a bad parameter or method is refused here once, not by every pod of a broadcast
        try {
            local.validate(method, name, query);
        } catch (InvalidParameterException e) {
            DiagnosticsResponses.sendInvalid(res, e);
            return;
        } catch (UnsupportedOperationException e) {
            DiagnosticsResponses.sendMethodNotAllowed(res, name, method, local.methods(name));
            return;
        }
        try {
            local.checkRate(method, name, query);
        } catch (DiagnosticsBusyException e) {
            DiagnosticsResponses.sendBusy(res, e);
            return;
        }
        if (other) {
            forward(method, pod.get(), name, parameters, req, res);
        } else {
            broadcast(method, name, parameters, req, res);
        }
    }

    private void compare(String method, Optional<String> pod, ServerRequest req, ServerResponse res) throws IOException {
        if (!LocalDiagnostics.GET.equals(method)) {
            DiagnosticsResponses.sendMethodNotAllowed(res, LocalDiagnostics.COMPARE, method, List.of(LocalDiagnostics.GET));
            return;
        }
        Optional<Boolean> internal = internal(req, res);
        if (internal.isEmpty()) {
            return;
        }
        if (internal.get()) {
            DiagnosticsResponses.sendInvalid(res, new InvalidParameterException("internal", "'compare' compares every pod "
                    + "of the module, so it is never answered by one pod alone: call it without internal=true."));
            return;
        }
        if (pod.isPresent()) {
            DiagnosticsResponses.sendInvalid(res, new InvalidParameterException("pod", "'compare' compares every pod "
                    + "of the module and takes no pod parameter; its answer lists each pod."));
            return;
        }
        LocalPod self = LocalPod.of(local, LocalDiagnostics.ALL);
        List<String> sections = new ArrayList<>();
        Optional<String> asked = req.query().first(LocalDiagnostics.SECTIONS).asOptional();
        if (asked.isPresent()) {
            List<String> returnable = DiagnosticsBroadcast.returnableSections(self);
            for (String part : asked.get().split(",", -1)) {
                String section = part.strip();
                if (!returnable.contains(section)) {
                    DiagnosticsResponses.sendInvalid(res, new InvalidParameterException(LocalDiagnostics.SECTIONS,
                            "The query parameter 'sections' of 'compare' must name sections to return with each pod, "
                                    + "comma-separated: " + String.join(", ", returnable) + "."));
                    return;
                }
                if (!sections.contains(section)) {
                    sections.add(section);
                }
            }
        }
        res.status(Status.OK_200);
        res.header(Json.CONTENT_TYPE_JSON);
        res.header(DiagnosticsResponses.NO_STORE);
        broadcast.compare(authorization(req), self, sections,
                new AggregateOutput(res::outputStream, res::send, OUTPUT_BUFFER));
    }

    private void download(Optional<String> pod, boolean other, DiagnosticsQuery query, ServerRequest req,
                          ServerResponse res) throws IOException {
        try {
            local.validate(LocalDiagnostics.GET, JFR, query);
        } catch (InvalidParameterException e) {
            DiagnosticsResponses.sendInvalid(res, e);
            return;
        }
        if (other) {
            forward(pod.get(), JFR, req, res);
            return;
        }
        if (recordings == null) {
            ErrorBody.send(res, Status.NOT_FOUND_404, "not_found", "This pod keeps no flight recordings.");
            return;
        }
        try {
            RecordingDownload.send(res, recordings, query.text("download").get(),
                    "gzip".equals(query.choice("compress", "none", List.of("none", "gzip"))), local.identity().podName());
        } catch (DiagnosticsRefusedException e) {
            DiagnosticsResponses.sendRefused(res, e);
        }
    }

    private void broadcast(String method, String name, Map<String, List<String>> parameters, ServerRequest req,
                           ServerResponse res) throws IOException {
        res.status(Status.OK_200);
        res.header(Json.CONTENT_TYPE_JSON);
        res.header(DiagnosticsResponses.NO_STORE);
        AggregateOutput out = new AggregateOutput(res::outputStream, res::send, OUTPUT_BUFFER);
        broadcast.run(method, name, authorization(req), parameters, LocalPod.of(local, name), out);
    }

    private void forward(String target, String name, ServerRequest req, ServerResponse res) throws IOException {
        forward(LocalDiagnostics.GET, target, name, query(req), req, res);
    }

    private void forward(String method, String target, String name, Map<String, List<String>> parameters,
                         ServerRequest req, ServerResponse res) throws IOException {
        PeerClient.Response answer;
        try {
            answer = broadcast.forward(method, target, name, authorization(req),
                    req.headers().first(HeaderNames.ACCEPT).orElse(null), parameters, local.identity().podName());
        } catch (PodFailedException e) {
            DiagnosticsResponses.sendGatewayError(res, e.failure().status(), e.failure().message());
            return;
        }
        ForwardedAnswer.relay(answer, name, target, res);
    }

    /**
     * Names the caller for the rate of heavy calls: the {@code caller} parameter when given (the Manager names its
     * user; a broadcasting pod passes it on), else the calling address. False when a given name is malformed (400).
     */
    private static boolean nameCaller(Map<String, List<String>> parameters, ServerRequest req, ServerResponse res) {
        List<String> given = parameters.get(LocalDiagnostics.CALLER);
        if (given == null || given.isEmpty()) {
            String address = req.remotePeer().address() instanceof java.net.InetSocketAddress inet && inet.getAddress() != null
                    ? inet.getAddress().getHostAddress() : "unknown";
            parameters.put(LocalDiagnostics.CALLER, List.of(address));
            return true;
        }
        if (given.size() > 1 || !CALLER_NAME.matcher(given.getFirst()).matches()) {
            DiagnosticsResponses.sendInvalid(res, new InvalidParameterException(LocalDiagnostics.CALLER, "The query "
                    + "parameter 'caller' must be one name of up to 64 letters, digits, '.', '_', ':', '@' or '-'."));
            return false;
        }
        return true;
    }

    private static @Nullable String authorization(ServerRequest req) {
        return req.headers().first(HeaderNames.AUTHORIZATION).orElse(null);
    }

    private static Map<String, List<String>> query(ServerRequest req) {
        Map<String, List<String>> query = new LinkedHashMap<>();
        for (String name : req.query().names()) {
            query.put(name, req.query().all(name));
        }
        return query;
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
