package io.pylon.integration.web;

import org.jspecify.annotations.Nullable;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.Handler;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.pylon.core.http.ErrorBody;
import io.pylon.core.http.Json;
import io.pylon.core.http.Routes;
import io.pylon.integration.flow.Durations;
import io.pylon.integration.flow.Flow;
import io.pylon.integration.flow.FlowParser;
import io.pylon.integration.flow.FlowSchedule;
import io.pylon.integration.flow.InvalidFlowException;
import io.pylon.integration.schedule.FlowCatalog;
import io.pylon.integration.schedule.FlowScheduler;
import io.pylon.integration.store.FlowStore;
import io.pylon.integration.store.RunRecord;
import io.pylon.integration.store.RunStore;
import io.pylon.integration.store.StepRecord;
import io.pylon.integration.store.StoreException;
import io.pylon.integration.store.StoredFlow;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The Integration pod's API under {@code /<segment>/integration/}: flows (create, read, replace, delete, validate),
 * the published flow schema, starting runs (a management token, or a flow's trigger key), and run history with each
 * step attempt, paged by keyset. Every failure answers a JSON error naming the problem. Stateless over thread-safe
 * parts; handlers run on the server's virtual threads.
 */
public final class IntegrationApi {
    private static final System.Logger LOG = System.getLogger(IntegrationApi.class.getName());
    /** Largest flow document accepted. */
    public static final int MAX_DOCUMENT = 256 * 1024;
    /** The longest {@code ?wait=}. */
    public static final Duration MAX_WAIT = Duration.ofSeconds(60);
    private static final int MAX_PAGE = 500;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final String base;
    private final FlowParser parser;
    private final FlowCatalog catalog;
    private final FlowStore flows;
    private final RunStore runs;
    private final FlowScheduler scheduler;
    private final RunWaiters waiters;
    private final Access access;
    private final ObjectMapper json;
    private final Views views;
    private final Clock clock;
    private final int maxInput;
    private final int maxFlows;

    public IntegrationApi(String segment, FlowParser parser, FlowCatalog catalog, FlowStore flows, RunStore runs, FlowScheduler scheduler,
                          RunWaiters waiters, ManagerTokens tokens, ObjectMapper json, Clock clock, int maxInput,
                          int maxFlows) {
        this.base = "/" + segment + "/integration";
        this.parser = parser;
        this.catalog = catalog;
        this.flows = flows;
        this.runs = runs;
        this.scheduler = scheduler;
        this.waiters = waiters;
        this.access = new Access(tokens, flows);
        this.json = json;
        this.views = new Views(json);
        this.clock = clock;
        this.maxInput = maxInput;
        this.maxFlows = maxFlows;
    }

    public void register(Routes routes) {
        routes.get(base + "/flow-schema.json", guarded(this::schema));
        routes.post(base + "/flows/validate", guarded(this::validate));
        routes.get(base + "/flows", guarded(this::list));
        routes.post(base + "/flows", guarded(this::create));
        routes.get(base + "/flows/{name}", guarded(this::read));
        routes.put(base + "/flows/{name}", guarded(this::replace));
        routes.delete(base + "/flows/{name}", guarded(this::delete));
        routes.post(base + "/flows/{name}/trigger-key", guarded(this::rotateKey));
        routes.post(base + "/flows/{name}/enable", guarded((req, res) -> setEnabled(req, res, true)));
        routes.post(base + "/flows/{name}/disable", guarded((req, res) -> setEnabled(req, res, false)));
        routes.post(base + "/flows/{name}/runs", guarded(this::trigger));
        routes.get(base + "/flows/{name}/runs", guarded(this::runs));
        routes.get(base + "/runs/{id}", guarded(this::run));
        routes.get(base + "/runs/{id}/steps", guarded(this::steps));
    }

    private Handler guarded(Handler handler) {
        return (req, res) -> {
            try {
                handler.handle(req, res);
            } catch (ApiError e) {
                res.header(ErrorBody.NO_STORE);
                Json.send(res, e.status, new ErrorBody(e.code, e.getMessage(), e.details));
            } catch (StoreException e) {
                LOG.log(System.Logger.Level.WARNING, "Integration API: " + e.getMessage());
                ErrorBody.send(res, Status.SERVICE_UNAVAILABLE_503, "temporarily_unavailable",
                        "The integration database did not answer; try again.");
            }
        };
    }

    private void schema(ServerRequest req, ServerResponse res) {
        res.header(HeaderNames.CONTENT_TYPE, "application/schema+json");
        res.send(parser.schema().text());
    }

    private void validate(ServerRequest req, ServerResponse res) {
        access.require(req, ManagerTokens.Role.VIEWER);
        String text = new String(Bodies.read(req, MAX_DOCUMENT), StandardCharsets.UTF_8);
        Map<String, Object> out = new LinkedHashMap<>();
        try {
            Flow flow = parser.parse(text);
            out.put("valid", true);
            out.put("name", flow.name());
            out.put("problems", List.of());
        } catch (InvalidFlowException e) {
            out.put("valid", false);
            out.put("problems", e.problems());
        }
        Json.send(res, out);
    }

    private Flow parse(String text) {
        try {
            return parser.parse(text);
        } catch (InvalidFlowException e) {
            throw new ApiError(Status.BAD_REQUEST_400, "invalid_flow", "The flow document is not valid: "
                    + e.getMessage(), Map.of("problems", e.problems()));
        }
    }

    private void list(ServerRequest req, ServerResponse res) {
        access.require(req, ManagerTokens.Role.VIEWER);
        int limit = limit(req, 100);
        String after = req.query().first("after").orElse(null);
        List<StoredFlow> page = flows.list(after, limit);
        Map<String, RunRecord> latest = runs.latest(page.stream().map(StoredFlow::name).toList());
        List<Object> items = new ArrayList<>();
        for (StoredFlow f : page) {
            items.add(view(f, false, latest.get(f.name())));
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("flows", items);
        out.put("next", page.size() == limit ? page.get(page.size() - 1).name() : null);
        Json.send(res, out);
    }

    private void create(ServerRequest req, ServerResponse res) {
        String caller = access.require(req, ManagerTokens.Role.OPERATOR).username();
        String text = new String(Bodies.read(req, MAX_DOCUMENT), StandardCharsets.UTF_8);
        Flow flow = parse(text);
        if (flows.count() >= maxFlows) {
            throw new ApiError(Status.CONFLICT_409, "too_many_flows", "There are " + maxFlows
                    + " flows already (pylon.integration.max-flows).");
        }
        String key = flow.trigger().http() ? newKey() : null;
        if (!flows.create(flow.name(), text, key, clock.instant())) {
            throw new ApiError(Status.CONFLICT_409, "conflict", "A flow named " + flow.name() + " exists.");
        }
        scheduler.apply(flow.name());
        LOG.log(System.Logger.Level.INFO, "Flow " + flow.name() + " created by " + caller);
        Map<String, Object> out = view(stored(flow.name()), false);
        if (key != null) {
            out.put("triggerKey", key);
        }
        res.header(HeaderNames.LOCATION, base + "/flows/" + flow.name());
        Json.send(res, Status.CREATED_201, out);
    }

    private void read(ServerRequest req, ServerResponse res) {
        access.require(req, ManagerTokens.Role.VIEWER);
        Json.send(res, view(existing(req), true));
    }

    private void replace(ServerRequest req, ServerResponse res) {
        String caller = access.require(req, ManagerTokens.Role.OPERATOR).username();
        String name = req.path().pathParameters().get("name");
        String text = new String(Bodies.read(req, MAX_DOCUMENT), StandardCharsets.UTF_8);
        Flow flow = parse(text);
        if (!flow.name().equals(name)) {
            throw ApiError.badRequest("The document's name (" + flow.name() + ") is not the flow's (" + name
                    + "); a flow is renamed by creating the new one and deleting the old.");
        }
        StoredFlow before = flows.find(name);
        if (before == null || flows.replace(name, text, clock.instant()) < 0) {
            throw ApiError.notFound("No flow named " + name + ".");
        }
        String key = null;
        if (flow.trigger().http() && !before.hasTriggerKey()) {
            key = newKey();
            flows.setTriggerKey(name, key);
        }
        scheduler.apply(name);
        LOG.log(System.Logger.Level.INFO, "Flow " + name + " replaced by " + caller);
        Map<String, Object> out = view(stored(name), false);
        if (key != null) {
            out.put("triggerKey", key);
        }
        Json.send(res, out);
    }

    private void delete(ServerRequest req, ServerResponse res) {
        String caller = access.require(req, ManagerTokens.Role.OPERATOR).username();
        String name = req.path().pathParameters().get("name");
        if (!flows.delete(name)) {
            throw ApiError.notFound("No flow named " + name + ".");
        }
        scheduler.apply(name);
        LOG.log(System.Logger.Level.INFO, "Flow " + name + " deleted by " + caller);
        res.status(Status.NO_CONTENT_204).send();
    }

    private void setEnabled(ServerRequest req, ServerResponse res, boolean enabled) {
        String caller = access.require(req, ManagerTokens.Role.OPERATOR).username();
        String name = req.path().pathParameters().get("name");
        if (!flows.setEnabled(name, enabled, clock.instant())) {
            throw ApiError.notFound("No flow named " + name + ".");
        }
        scheduler.apply(name);
        LOG.log(System.Logger.Level.INFO, "Flow " + name + (enabled ? " enabled" : " disabled") + " by " + caller);
        Json.send(res, view(stored(name), false));
    }

    private void rotateKey(ServerRequest req, ServerResponse res) {
        access.require(req, ManagerTokens.Role.OPERATOR);
        StoredFlow stored = existing(req);
        String key = newKey();
        flows.setTriggerKey(stored.name(), key);
        Json.send(res, Map.of("name", stored.name(), "triggerKey", key));
    }

    private void trigger(ServerRequest req, ServerResponse res) throws InterruptedException {
        String name = req.path().pathParameters().get("name");
        StoredFlow stored = flows.find(name);
        Flow flow = stored == null ? null : parseStored(stored);
        String caller = access.requireTrigger(req, name, flow != null && flow.trigger().http());
        String trigger = caller.equals(Access.BY_TRIGGER_KEY) ? "http" : "manual";
        if (stored == null || flow == null) {
            throw ApiError.notFound("No flow named " + name + ".");
        }
        if (!stored.enabled() && caller.equals(Access.BY_TRIGGER_KEY)) {
            throw new ApiError(Status.CONFLICT_409, "flow_disabled", "The flow " + name
                    + " is switched off; its trigger key starts no runs until it is enabled.");
        }
        Duration wait = waitParam(req);
        byte[] body = Bodies.read(req, maxInput);
        JsonNode input = null;
        if (body.length > 0) {
            try {
                input = json.readTree(body);
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                throw ApiError.badRequest("The run's input (the request body) is not JSON: " + e.getOriginalMessage());
            } catch (java.io.IOException e) {
                throw ApiError.badRequest("The run's input (the request body) cannot be read.");
            }
        }
        boolean waiting = !wait.isZero();
        if (waiting && !waiters.tryEnter()) {
            throw new ApiError(Status.TOO_MANY_REQUESTS_429, "temporarily_unavailable",
                    "Too many callers are waiting for runs; start it without wait and poll its Location.");
        }
        String runId = UUID.randomUUID().toString();
        try {
            Instant now = clock.instant();
            runs.queue(runId, name, trigger, now, input == null ? null : json.writeValueAsString(input), now);
            scheduler.request(name, runId, trigger, now, input);
            String location = base + "/runs/" + runId;
            res.header(HeaderNames.LOCATION, location);
            if (waiting) {
                Instant deadline = now.plus(wait);
                RunRecord record = recorded(runId);
                while (!record.finished()) {
                    Duration left = Duration.between(clock.instant(), deadline);
                    if (left.isNegative() || left.isZero()) {
                        break;
                    }
                    waiters.await(runId, left.compareTo(Duration.ofMillis(500)) < 0 ? left : Duration.ofMillis(500));
                    record = recorded(runId);
                }
                if (record.finished()) {
                    Json.send(res, runWithSteps(record));
                    return;
                }
            }
            Json.send(res, Status.ACCEPTED_202, views.run(recorded(runId), false));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw ApiError.badRequest("The run's input cannot be written as JSON.");
        } finally {
            if (waiting) {
                waiters.leave(runId);
            }
        }
    }

    private void runs(ServerRequest req, ServerResponse res) {
        access.require(req, ManagerTokens.Role.VIEWER);
        String name = req.path().pathParameters().get("name");
        int limit = limit(req, 50);
        Long before = longParam(req, "before");
        List<RunRecord> page = runs.runs(name, before, limit);
        List<Object> items = new ArrayList<>();
        for (RunRecord r : page) {
            items.add(views.run(r, false));
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("runs", items);
        out.put("next", page.size() == limit ? page.get(page.size() - 1).seq() : null);
        Json.send(res, out);
    }

    private void run(ServerRequest req, ServerResponse res) {
        access.require(req, ManagerTokens.Role.VIEWER);
        RunRecord record = runs.find(req.path().pathParameters().get("id"));
        if (record == null) {
            throw ApiError.notFound("No run with id " + req.path().pathParameters().get("id") + ".");
        }
        Json.send(res, runWithSteps(record));
    }

    private void steps(ServerRequest req, ServerResponse res) {
        access.require(req, ManagerTokens.Role.VIEWER);
        int limit = limit(req, 100);
        Long after = longParam(req, "after");
        RunRecord record = runs.find(req.path().pathParameters().get("id"));
        if (record == null) {
            throw ApiError.notFound("No run with id " + req.path().pathParameters().get("id") + ".");
        }
        List<StepRecord> page = runs.steps(record.seq(), after, limit);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("steps", page.stream().map(views::step).toList());
        out.put("next", page.size() == limit ? page.get(page.size() - 1).seq() : null);
        Json.send(res, out);
    }

    private Map<String, Object> runWithSteps(RunRecord record) {
        Map<String, Object> out = views.run(record, true);
        List<StepRecord> steps = runs.steps(record.seq(), null, 100);
        out.put("steps", steps.stream().map(views::step).toList());
        out.put("nextSteps", steps.size() == 100 ? steps.get(99).seq() : null);
        return out;
    }

    private StoredFlow existing(ServerRequest req) {
        return stored(req.path().pathParameters().get("name"));
    }

    /** A flow just written, or named by the caller: 404 when it is gone (deleted meanwhile). */
    private StoredFlow stored(String name) {
        StoredFlow stored = flows.find(name);
        if (stored == null) {
            throw ApiError.notFound("No flow named " + name + ".");
        }
        return stored;
    }

    /** A run this request recorded (retention never removes an unfinished run). */
    private RunRecord recorded(String runId) {
        RunRecord record = runs.find(runId);
        if (record == null) {
            throw new IllegalStateException("Run " + runId + " is missing right after it was recorded");
        }
        return record;
    }

    private @Nullable Flow parseStored(StoredFlow stored) {
        FlowCatalog.Parsed parsed = catalog.of(stored);
        return parsed == null ? null : parsed.flow();
    }

    /** A flow as answered: a document stored by an older version that no longer parses is shown without its trigger. */
    private Map<String, Object> view(StoredFlow stored, boolean withDocument) {
        return view(stored, withDocument, runs.latest(stored.name()));
    }

    private Map<String, Object> view(StoredFlow stored, boolean withDocument, @Nullable RunRecord lastRun) {
        Flow flow = parseStored(stored);
        FlowSchedule schedule = flow == null || !stored.enabled() ? null : flow.trigger().schedule();
        Instant next = schedule == null ? null : schedule.next(clock.instant()).orElse(null);
        return views.flow(stored, flow, withDocument, next, lastRun);
    }

    private static Duration waitParam(ServerRequest req) {
        String text = req.query().first("wait").orElse(null);
        if (text == null) {
            return Duration.ZERO;
        }
        Duration d;
        try {
            d = text.chars().allMatch(Character::isDigit) && !text.isEmpty() ? Duration.ofSeconds(Long.parseLong(text))
                    : Durations.parse(text);
        } catch (RuntimeException e) {
            throw ApiError.badRequest("wait: a duration such as 30s or 500ms, at most " + MAX_WAIT.toSeconds() + "s.");
        }
        if (d.compareTo(MAX_WAIT) > 0) {
            throw ApiError.badRequest("wait: at most " + MAX_WAIT.toSeconds() + "s.");
        }
        return d;
    }

    private static int limit(ServerRequest req, int byDefault) {
        Long limit = longParam(req, "limit");
        if (limit == null) {
            return byDefault;
        }
        if (limit < 1 || limit > MAX_PAGE) {
            throw ApiError.badRequest("limit: a whole number from 1 to " + MAX_PAGE + ".");
        }
        return limit.intValue();
    }

    private static @Nullable Long longParam(ServerRequest req, String name) {
        String text = req.query().first(name).orElse(null);
        if (text == null) {
            return null;
        }
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw ApiError.badRequest(name + ": a whole number.");
        }
    }

    private static String newKey() {
        byte[] bytes = new byte[24];
        RANDOM.nextBytes(bytes);
        return "pylon_tk_" + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
