package io.pylon.integration.flow;

import org.jspecify.annotations.Nullable;

import com.fasterxml.jackson.databind.JsonNode;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/** What a step does: one of the step kinds. */
public sealed interface StepSpec {

    /** The kind's name in flow documents: {@code http}. */
    String kind();

    /**
     * A request's body: a JSONata expression whose value is sent as JSON, a literal JSON value, or none.
     *
     * @param expression the expression, or null
     * @param literal    the literal value, or null
     */
    record Body(@Nullable String expression, @Nullable JsonNode literal) {
        public static final Body NONE = new Body(null, null);

        public boolean isNone() {
            return expression == null && literal == null;
        }
    }

    /** An HTTP request; its output is {@code {status, headers, body}}. */
    record Http(String method, String url, Map<String, String> headers, Body body, Duration timeout,
                List<Integer> expect, @Nullable Integer maxBody) implements StepSpec {
        public Http {
            headers = Map.copyOf(headers);
            expect = List.copyOf(expect);
        }

        @Override
        public String kind() {
            return "http";
        }

        /** GET, HEAD, PUT, DELETE and OPTIONS may be repeated without changing the outcome (RFC 9110 9.2.2). */
        public boolean idempotent() {
            return !method.equals("POST") && !method.equals("PATCH");
        }
    }

    /** A JSONata expression; its value is the output. */
    record Transform(String expression) implements StepSpec {
        @Override
        public String kind() {
            return "transform";
        }
    }

    /** A JSONata expression; false or no value ends the run as skipped. */
    record Condition(String expression) implements StepSpec {
        @Override
        public String kind() {
            return "condition";
        }
    }

    /** A pause. */
    record Delay(Duration duration) implements StepSpec {
        @Override
        public String kind() {
            return "delay";
        }
    }

    /** A POST of a JSON body signed with HMAC-SHA256 when {@code hmacSecretRef} names a secret. */
    record Webhook(String url, Map<String, String> headers, Body body, @Nullable String hmacSecretRef, Duration timeout,
                   List<Integer> expect) implements StepSpec {
        public Webhook {
            headers = Map.copyOf(headers);
            expect = List.copyOf(expect);
        }

        @Override
        public String kind() {
            return "webhook";
        }
    }
}
