package io.pylon.integration.step;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ExpressionsTest {
    private final ObjectMapper json = JsonMapper.builder().build();
    private final Expressions expressions = new Expressions(json, Duration.ofMillis(500), 100);

    private Bindings bindings(String outputs, String previous) throws Exception {
        return new Bindings((ObjectNode) json.readTree(outputs), json.readTree("{\"n\": 3}"), json.readTree(previous),
                json.readTree("{\"id\": \"r1\", \"flow\": \"f\"}"), null);
    }

    @Test
    void readsEarlierStepsInputAndThePreviousRun() throws Exception {
        Bindings b = bindings("{\"fetch\": {\"body\": {\"rates\": [{\"code\": \"EUR\", \"value\": 1.1},"
                + " {\"code\": \"USD\", \"value\": 1.0}]}}}", "{\"shape\": {\"eur\": 1.1}}");
        assertThat(expressions.evaluate("{\"eur\": fetch.body.rates[code=\"EUR\"].value}", b).toString())
                .isEqualTo("{\"eur\":1.1}");
        b.outputs().set("shape", json.readTree("{\"eur\": 1.1}"));
        assertThat(expressions.test("shape.eur != $previous.shape.eur", b)).isFalse();
        assertThat(expressions.evaluate("$input.n * 2", b).asInt()).isEqualTo(6);
        assertThat(expressions.evaluate("$run.id", b).asText()).isEqualTo("r1");
    }

    @Test
    void aRecursionWithoutEndIsStoppedByTheDepthLimit() throws Exception {
        Bindings b = bindings("{}", "{}");
        assertThatThrownBy(() -> expressions.evaluate("($f := function($x) { $f($x + 1) }; $f(0))", b))
                .isInstanceOf(StepFailure.class).hasMessageContaining("expression");
    }

    @Test
    void aLoopingExpressionIsStoppedByTheTimeLimit() throws Exception {
        Bindings b = bindings("{}", "{}");
        Expressions deep = new Expressions(json, Duration.ofMillis(300), 100_000);
        long start = System.nanoTime();
        assertThatThrownBy(() -> deep.evaluate("($f := function($x) { $x > 100000000 ? $x : $f($x + 1) }; $f(0))", b))
                .isInstanceOf(StepFailure.class);
        // stopped by a limit, not after finishing the work (generous bound: a loaded machine)
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(30));
    }

    @Test
    void aSyntaxErrorIsAStepFailure() throws Exception {
        assertThatThrownBy(() -> expressions.evaluate("{", bindings("{}", "{}"))).isInstanceOf(StepFailure.class);
    }
}
