package io.pylon.integration.step;

import org.jspecify.annotations.Nullable;

import com.dashjoin.jsonata.Jsonata;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.NullNode;

import java.time.Duration;

/**
 * Evaluates JSONata (dashjoin's Java implementation) over a run's {@link Bindings}, within a time limit and a depth
 * limit so that an expression that loops or recurses without end is stopped with a step failure rather than holding
 * a scheduler thread. Thread-safe: each evaluation has its own frame.
 */
public final class Expressions {
    private final ObjectMapper json;
    private final Duration timeout;
    private final int maxDepth;

    public Expressions(ObjectMapper json, Duration timeout, int maxDepth) {
        this.json = json;
        this.timeout = timeout;
        this.maxDepth = maxDepth;
    }

    /** The expression's value as JSON; a null node when it has none. */
    public JsonNode evaluate(String expression, Bindings bindings) {
        Object result;
        try {
            Jsonata compiled = Jsonata.jsonata(expression);
            Jsonata.Frame frame = compiled.createFrame();
            frame.bind("input", plain(bindings.input()));
            frame.bind("previous", plain(bindings.previous()));
            frame.bind("run", plain(bindings.run()));
            frame.bind("error", plain(bindings.error()));
            frame.setRuntimeBounds(timeout.toMillis(), maxDepth);
            result = compiled.evaluate(plain(bindings.outputs()), frame);
        } catch (StackOverflowError e) {
            throw new StepFailure("expression stopped: nested too deep", false, null);
        } catch (RuntimeException e) {
            String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            throw new StepFailure("expression failed: " + message, false, null);
        }
        if (result == null || result == Jsonata.NULL_VALUE) {
            return NullNode.instance;
        }
        try {
            return json.valueToTree(result);
        } catch (IllegalArgumentException e) {
            throw new StepFailure("expression value is not JSON (a function?)", false, null);
        }
    }

    /** Whether an expression's value counts as true (JSONata's $boolean). */
    public boolean test(String expression, Bindings bindings) {
        JsonNode value = evaluate(expression, bindings);
        return Jsonata.boolize(value.isNull() ? null : plain(value));
    }

    private @Nullable Object plain(@Nullable JsonNode node) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            return null;
        }
        return json.convertValue(node, Object.class);
    }
}
