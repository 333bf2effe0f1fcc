package io.pylon.integration.step;

import org.jspecify.annotations.Nullable;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.failsafe.Failsafe;
import dev.failsafe.FailsafeException;
import dev.failsafe.RetryPolicy;
import dev.failsafe.RetryPolicyBuilder;
import io.pylon.integration.flow.RetrySpec;
import io.pylon.integration.flow.Step;
import io.pylon.integration.flow.StepSpec;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs one step with its retry policy (Failsafe: exponential backoff with jitter), reporting every attempt. A
 * non-idempotent request (POST, PATCH, a webhook) is attempted once unless its retry says {@code nonIdempotent};
 * only failures that another attempt might mend (a timeout, a 5xx, 408, 429) are retried. Thread-safe: it holds
 * shared, thread-safe parts only; each call runs on its run's thread.
 */
public final class StepRunner {
    private final ObjectMapper json;
    private final Expressions expressions;
    private final HttpCaller http;
    private final SecretStore secrets;
    private final Clock clock;
    private final int defaultMaxBody;

    public StepRunner(ObjectMapper json, Expressions expressions, HttpCaller http, SecretStore secrets, Clock clock,
                      int defaultMaxBody) {
        this.json = json;
        this.expressions = expressions;
        this.http = http;
        this.secrets = secrets;
        this.clock = clock;
        this.defaultMaxBody = defaultMaxBody;
    }

    public StepResult run(Step step, String phase, Bindings bindings, AttemptListener listener) {
        RetrySpec retry = step.retry();
        boolean idempotent = switch (step.spec()) {
            case StepSpec.Http h -> h.idempotent();
            case StepSpec.Webhook w -> false;
            default -> true;
        };
        int attempts = idempotent || retry.nonIdempotent() ? retry.maxAttempts() : 1;
        RetryPolicyBuilder<JsonNode> policy = RetryPolicy.<JsonNode>builder()
                .handleIf(e -> e instanceof StepFailure f && f.retryable())
                .withMaxAttempts(attempts);
        if (retry.multiplier() > 1 && retry.initialDelay().compareTo(retry.maxDelay()) < 0) {
            policy.withBackoff(retry.initialDelay(), retry.maxDelay(), retry.multiplier());
        } else {
            policy.withDelay(retry.initialDelay());
        }
        if (retry.jitter() > 0) {
            policy.withJitter(retry.jitter());
        }
        try {
            JsonNode output = Failsafe.with(policy.build()).get(ctx -> attempt(step, phase, ctx.getAttemptCount() + 1,
                    bindings, listener));
            if (step.spec() instanceof StepSpec.Condition && !output.asBoolean()) {
                return new StepResult(StepResult.Outcome.CONDITION_FALSE, output, null);
            }
            return new StepResult(StepResult.Outcome.SUCCEEDED, output, null);
        } catch (StepFailure f) {
            return new StepResult(StepResult.Outcome.FAILED, NullNode.instance, f.getMessage());
        } catch (FailsafeException e) {
            if (e.getCause() instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            return new StepResult(StepResult.Outcome.FAILED, NullNode.instance, "interrupted: the pod is stopping");
        }
    }

    private JsonNode attempt(Step step, String phase, int attempt, Bindings bindings, AttemptListener listener) {
        Instant started = clock.instant();
        try {
            JsonNode output = once(step.spec(), step.id(), bindings);
            Integer status = output.has("status") && step.spec() instanceof StepSpec.Http
                    || step.spec() instanceof StepSpec.Webhook ? output.path("status").asInt() : null;
            String outcome = step.spec() instanceof StepSpec.Condition && !output.asBoolean() ? "false" : "succeeded";
            listener.attempt(new StepAttempt(step.id(), step.spec().kind(), phase, attempt, started, clock.instant(),
                    outcome, status, output, null));
            return output;
        } catch (StepFailure f) {
            listener.attempt(new StepAttempt(step.id(), step.spec().kind(), phase, attempt, started, clock.instant(),
                    "failed", f.httpStatus(), NullNode.instance, f.getMessage()));
            throw f;
        }
    }

    private JsonNode once(StepSpec spec, String stepId, Bindings bindings) {
        return switch (spec) {
            case StepSpec.Transform t -> expressions.evaluate(t.expression(), bindings);
            case StepSpec.Condition c -> BooleanNode.valueOf(expressions.test(c.expression(), bindings));
            case StepSpec.Delay d -> {
                try {
                    Thread.sleep(d.duration());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new StepFailure("interrupted: the pod is stopping", false, null);
                }
                yield NullNode.instance;
            }
            case StepSpec.Http h -> {
                JsonNode value = value(h.body(), bindings);
                byte[] body = value == null ? null : bytes(value);
                HttpReply reply = http.call(h.method(), h.url(), h.headers(), body, h.timeout(),
                        h.maxBody() == null ? defaultMaxBody : h.maxBody());
                yield checked(reply, h.expect(), h.method() + " " + withoutCredentials(h.url()));
            }
            case StepSpec.Webhook w -> webhook(w, stepId, bindings);
        };
    }

    private JsonNode webhook(StepSpec.Webhook w, String stepId, Bindings bindings) {
        JsonNode value = value(w.body(), bindings);
        byte[] body = bytes(value != null ? value : defaultWebhookBody(bindings));
        Map<String, String> headers = new LinkedHashMap<>(w.headers());
        headers.put("X-Pylon-Delivery", bindings.run().path("id").asText() + "." + stepId);
        String secretRef = w.hmacSecretRef();
        if (secretRef != null) {
            long now = clock.instant().getEpochSecond();
            headers.put(WebhookSignature.TIMESTAMP_HEADER, Long.toString(now));
            headers.put(WebhookSignature.SIGNATURE_HEADER, WebhookSignature.sign(secrets.read(secretRef), now, body));
        }
        HttpReply reply = http.call("POST", w.url(), headers, body, w.timeout(), defaultMaxBody);
        return checked(reply, w.expect(), "POST " + withoutCredentials(w.url()));
    }

    private JsonNode defaultWebhookBody(Bindings bindings) {
        ObjectNode body = json.createObjectNode();
        body.put("flow", bindings.run().path("flow").asText());
        body.put("runId", bindings.run().path("id").asText());
        if (!bindings.error().isNull()) {
            body.put("status", "failed");
            body.set("error", bindings.error());
        } else {
            body.put("status", "running");
        }
        return body;
    }

    /** The value a body sends: its expression's, its literal, or null when it has neither. */
    private @Nullable JsonNode value(StepSpec.Body body, Bindings bindings) {
        String expression = body.expression();
        return expression != null ? expressions.evaluate(expression, bindings) : body.literal();
    }

    private byte[] bytes(JsonNode value) {
        try {
            return json.writeValueAsBytes(value);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new StepFailure("body cannot be written as JSON", false, null);
        }
    }

    private JsonNode checked(HttpReply reply, List<Integer> expect, String what) {
        ObjectNode output = json.createObjectNode();
        output.put("status", reply.status());
        ObjectNode headers = output.putObject("headers");
        reply.headers().forEach(headers::put);
        output.set("body", parseBody(reply));
        if (reply.truncated()) {
            output.put("truncated", true);
        }
        boolean ok = expect.isEmpty() ? reply.status() / 100 == 2 : expect.contains(reply.status());
        if (!ok) {
            int s = reply.status();
            boolean retryable = s >= 500 || s == 408 || s == 429;
            throw new StepFailure(what + " answered " + s + (expect.isEmpty() ? " (expected 2xx)" : " (expected "
                    + expect + ")"), retryable, s);
        }
        return output;
    }

    /** A URL as errors and history show it: without user information ({@code user:password@}) or query. */
    static String withoutCredentials(String url) {
        try {
            java.net.URI uri = java.net.URI.create(url);
            return new java.net.URI(uri.getScheme(), null, uri.getHost(), uri.getPort(), uri.getPath(), null, null).toString();
        } catch (IllegalArgumentException | java.net.URISyntaxException e) {
            return "(a URL)";
        }
    }

    private JsonNode parseBody(HttpReply reply) {
        if (reply.body().length == 0) {
            return NullNode.instance;
        }
        String type = reply.contentType() == null ? "" : reply.contentType().toLowerCase(java.util.Locale.ROOT);
        if (!reply.truncated() && (type.contains("json") || type.isEmpty())) {
            try {
                return json.readTree(reply.body());
            } catch (java.io.IOException e) {
                // not JSON after all: kept as text
            }
        }
        return json.getNodeFactory().textNode(new String(reply.body(), StandardCharsets.UTF_8));
    }
}
