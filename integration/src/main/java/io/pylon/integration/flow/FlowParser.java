package io.pylon.integration.flow;

import org.jspecify.annotations.Nullable;

import com.dashjoin.jsonata.Jsonata;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;

import java.time.DateTimeException;
import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads flow documents (JSON or YAML) into {@link Flow}s: first against the published {@link FlowSchema}, then what
 * a schema cannot say (cron syntax, time zones, JSONata syntax, one kind per step, unique ids, delays within the
 * bounds). Every problem names the step and the field. Thread-safe: it holds only immutable parts.
 */
public final class FlowParser {
    /** The longest delay step, and the longest step timeout. */
    public static final Duration MAX_DELAY = Duration.ofHours(1);
    public static final Duration MAX_TIMEOUT = Duration.ofMinutes(5);
    private static final List<String> KINDS = List.of("http", "transform", "condition", "delay", "webhook");
    private static final Set<String> RESERVED_IDS = Set.of("input", "previous", "run", "error");

    private final ObjectMapper json = JsonMapper.builder().build();
    private final ObjectMapper yaml = YAMLMapper.builder(YAMLFactory.builder().build()).build();
    private final FlowSchema schema;

    public FlowParser(FlowSchema schema) {
        this.schema = schema;
    }

    public FlowSchema schema() {
        return schema;
    }

    /** Reads a document: JSON when it starts with '{', YAML otherwise (YAML is a superset of JSON anyway). */
    public JsonNode read(String text) throws InvalidFlowException {
        String trimmed = text.stripLeading();
        if (trimmed.isEmpty()) {
            throw new InvalidFlowException("document", "the document is empty");
        }
        try {
            JsonNode node = trimmed.startsWith("{") ? json.readTree(trimmed) : yaml.readTree(trimmed);
            if (node == null || node.isMissingNode()) {
                throw new InvalidFlowException("document", "the document is empty");
            }
            return node;
        } catch (JsonProcessingException e) {
            String where = e.getLocation() == null ? "" : " at line " + e.getLocation().getLineNr() + ", column "
                    + e.getLocation().getColumnNr();
            throw new InvalidFlowException("document", "not valid JSON or YAML" + where + ": " + e.getOriginalMessage());
        }
    }

    /** Reads and checks a document. */
    public Flow parse(String text) throws InvalidFlowException {
        return parse(read(text));
    }

    /** Checks a document read already. */
    public Flow parse(JsonNode document) throws InvalidFlowException {
        if (!document.isObject()) {
            throw new InvalidFlowException("document", "a flow is an object with name and steps");
        }
        List<FlowProblem> problems = new ArrayList<>(schema.validate(document));
        if (!problems.isEmpty()) {
            throw new InvalidFlowException(problems);
        }
        Trigger trigger = trigger(document.path("trigger"), problems);
        Set<String> ids = new HashSet<>();
        List<Step> steps = steps(document.path("steps"), "steps", ids, problems);
        List<Step> onFailure = steps(document.path("onFailure"), "onFailure", ids, problems);
        if (!problems.isEmpty()) {
            throw new InvalidFlowException(problems);
        }
        Flow.Concurrency concurrency = document.path("concurrency").asText("forbid").equals("allow")
                ? Flow.Concurrency.ALLOW : Flow.Concurrency.FORBID;
        return new Flow(document.path("name").asText(), trigger, concurrency, steps, onFailure);
    }

    private Trigger trigger(JsonNode node, List<FlowProblem> problems) {
        JsonNode schedule = node.path("schedule");
        FlowSchedule parsed = null;
        if (schedule.isObject()) {
            QuartzCron cron = null;
            ZoneId zone = null;
            try {
                cron = QuartzCron.parse(schedule.path("cron").asText());
            } catch (IllegalArgumentException e) {
                problems.add(new FlowProblem("trigger.schedule.cron", FlowProblem.reason(e)));
            }
            try {
                zone = ZoneId.of(schedule.path("timezone").asText("UTC"));
            } catch (DateTimeException e) {
                problems.add(new FlowProblem("trigger.schedule.timezone", "not a time zone: "
                        + schedule.path("timezone").asText()));
            }
            if (cron != null && zone != null) {
                parsed = new FlowSchedule(cron, zone, FlowSchedule.Misfire.of(schedule.path("misfire").asText("run-all")));
            }
        }
        return new Trigger(parsed, node.path("http").asBoolean(false));
    }

    private List<Step> steps(JsonNode array, String list, Set<String> ids, List<FlowProblem> problems) {
        List<Step> steps = new ArrayList<>();
        for (int i = 0; i < array.size(); i++) {
            JsonNode node = array.get(i);
            String at = list + "[" + i + "]" + (node.hasNonNull("id") ? " (" + node.get("id").asText() + ")" : "");
            List<String> kinds = KINDS.stream().filter(node::has).toList();
            if (kinds.size() != 1) {
                problems.add(new FlowProblem(at, "a step has exactly one of " + String.join(", ", KINDS)
                        + (kinds.isEmpty() ? "; it has none" : "; it has " + String.join(" and ", kinds))));
                continue;
            }
            String kind = kinds.get(0);
            String id = node.hasNonNull("id") ? node.get("id").asText()
                    : (list.equals("steps") ? "" : "onFailure_") + kind + (i + 1);
            if (RESERVED_IDS.contains(id)) {
                problems.add(new FlowProblem(at + ".id", "'" + id + "' is reserved (" + RESERVED_IDS + ")"));
            } else if (!ids.add(id)) {
                problems.add(new FlowProblem(at + ".id", "another step has the id '" + id + "'"));
            }
            try {
                StepSpec spec = spec(kind, node.get(kind), at + "." + kind, problems);
                if (spec != null) {
                    steps.add(new Step(id, spec, retry(node.path("retry"), at + ".retry", problems)));
                }
            } catch (IllegalArgumentException e) {
                problems.add(new FlowProblem(at + "." + kind, FlowProblem.reason(e)));
            }
        }
        return steps;
    }

    private @Nullable StepSpec spec(String kind, JsonNode node, String at, List<FlowProblem> problems) {
        return switch (kind) {
            case "transform" -> expression(node.asText(), at, problems) ? new StepSpec.Transform(node.asText()) : null;
            case "condition" -> expression(node.asText(), at, problems) ? new StepSpec.Condition(node.asText()) : null;
            case "delay" -> {
                Duration d = Durations.parse(node.asText());
                if (d.compareTo(MAX_DELAY) > 0) {
                    problems.add(new FlowProblem(at, "at most " + Durations.format(MAX_DELAY)));
                    yield null;
                }
                yield new StepSpec.Delay(d);
            }
            case "http" -> new StepSpec.Http(node.path("method").asText("GET"), node.path("url").asText(),
                    headers(node.path("headers")), body(node.get("body"), at + ".body", problems),
                    timeout(node, Duration.ofSeconds(30), at, problems), statuses(node.path("expect")),
                    node.has("maxBody") ? node.get("maxBody").asInt() : null);
            case "webhook" -> new StepSpec.Webhook(node.path("url").asText(), headers(node.path("headers")),
                    body(node.get("body"), at + ".body", problems),
                    node.hasNonNull("hmacSecretRef") ? node.get("hmacSecretRef").asText() : null,
                    timeout(node, Duration.ofSeconds(10), at, problems), statuses(node.path("expect")));
            default -> throw new IllegalStateException(kind);
        };
    }

    private static Duration timeout(JsonNode node, Duration byDefault, String at, List<FlowProblem> problems) {
        if (!node.has("timeout")) {
            return byDefault;
        }
        Duration d = Durations.parse(node.get("timeout").asText());
        if (d.compareTo(MAX_TIMEOUT) > 0 || d.isZero()) {
            problems.add(new FlowProblem(at + ".timeout", "from 1ms to " + Durations.format(MAX_TIMEOUT)));
        }
        return d;
    }

    private StepSpec.Body body(@Nullable JsonNode node, String at, List<FlowProblem> problems) {
        if (node == null || node.isNull()) {
            return StepSpec.Body.NONE;
        }
        if (node.isTextual()) {
            return expression(node.asText(), at, problems) ? new StepSpec.Body(node.asText(), null) : StepSpec.Body.NONE;
        }
        return new StepSpec.Body(null, node);
    }

    private static boolean expression(String text, String at, List<FlowProblem> problems) {
        try {
            Jsonata.jsonata(text);
            return true;
        } catch (RuntimeException e) {
            problems.add(new FlowProblem(at, "not a valid JSONata expression: " + e.getMessage()));
            return false;
        }
    }

    private static Map<String, String> headers(JsonNode node) {
        Map<String, String> headers = new LinkedHashMap<>();
        node.properties().forEach(e -> headers.put(e.getKey(), e.getValue().asText()));
        return headers;
    }

    private static List<Integer> statuses(JsonNode node) {
        List<Integer> statuses = new ArrayList<>();
        node.forEach(n -> statuses.add(n.asInt()));
        return statuses;
    }

    private static RetrySpec retry(JsonNode node, String at, List<FlowProblem> problems) {
        if (!node.isObject()) {
            return RetrySpec.ONCE;
        }
        Duration initial = node.has("initialDelay") ? Durations.parse(node.get("initialDelay").asText()) : Duration.ofSeconds(1);
        Duration max = node.has("maxDelay") ? Durations.parse(node.get("maxDelay").asText()) : Duration.ofSeconds(30);
        if (max.compareTo(initial) < 0) {
            problems.add(new FlowProblem(at + ".maxDelay", "shorter than initialDelay (" + Durations.format(initial) + ")"));
        }
        if (max.compareTo(MAX_DELAY) > 0) {
            problems.add(new FlowProblem(at + ".maxDelay", "at most " + Durations.format(MAX_DELAY)));
        }
        return new RetrySpec(node.path("maxAttempts").asInt(1), initial, node.path("multiplier").asDouble(2), max,
                node.path("jitter").asDouble(0.2), node.path("nonIdempotent").asBoolean(false));
    }
}
