package io.pylon.integration.flow;

import com.fasterxml.jackson.databind.json.JsonMapper;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FlowParserTest {
    static final String EXAMPLE = """
            name: sync-rates
            trigger: {schedule: {cron: "0 */5 * * * ?", timezone: UTC}, http: true}
            concurrency: forbid
            steps:
              - id: fetch
                http: {method: GET, url: "http://rates.internal/today", timeout: 5s, expect: [200]}
                retry: {maxAttempts: 4, initialDelay: 1s, multiplier: 2, maxDelay: 30s}
              - id: shape
                transform: '{"eur": fetch.body.rates[code="EUR"].value}'
              - id: changed
                condition: 'shape.eur != $previous.shape.eur'
              - id: notify
                webhook: {url: "http://hooks.internal/rates", body: shape, hmacSecretRef: rates-hook}
            onFailure: [{webhook: {url: "http://hooks.internal/alerts"}}]
            """;

    private final FlowParser parser = new FlowParser(new FlowSchema(JsonMapper.builder().build()));

    @Test
    void theDocumentedExampleParsesAsItIs() throws Exception {
        Flow flow = parser.parse(EXAMPLE);
        assertThat(flow.name()).isEqualTo("sync-rates");
        assertThat(flow.concurrency()).isEqualTo(Flow.Concurrency.FORBID);
        assertThat(flow.trigger().http()).isTrue();
        assertThat(flow.trigger().schedule().zone()).isEqualTo(ZoneId.of("UTC"));
        assertThat(flow.trigger().schedule().misfire()).isEqualTo(FlowSchedule.Misfire.RUN_ALL);
        assertThat(flow.steps()).extracting(Step::id).containsExactly("fetch", "shape", "changed", "notify");
        StepSpec.Http fetch = (StepSpec.Http) flow.steps().get(0).spec();
        assertThat(fetch.timeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(fetch.expect()).containsExactly(200);
        assertThat(flow.steps().get(0).retry().maxAttempts()).isEqualTo(4);
        StepSpec.Webhook notify = (StepSpec.Webhook) flow.steps().get(3).spec();
        assertThat(notify.body().expression()).isEqualTo("shape");
        assertThat(notify.hmacSecretRef()).isEqualTo("rates-hook");
        assertThat(flow.onFailure()).hasSize(1);
        assertThat(flow.onFailure().get(0).id()).isEqualTo("onFailure_webhook1");
        assertThat(flow.trigger().schedule().next(Instant.parse("2026-01-01T10:02:11Z")))
                .contains(Instant.parse("2026-01-01T10:05:00Z"));
    }

    @Test
    void theSameFlowAsJsonParsesAlike() throws Exception {
        String json = JsonMapper.builder().build().writeValueAsString(parser.read(EXAMPLE));
        assertThat(parser.parse(json).steps()).hasSize(4);
    }

    @Test
    void cronHasSecondsAndATimeZone() throws Exception {
        Flow flow = parser.parse("""
                name: berlin
                trigger: {schedule: {cron: "30 0 9 ? * MON-FRI", timezone: Europe/Berlin, misfire: skip}}
                steps: [{delay: 1ms}]
                """);
        // 2026-01-05 is a Monday; 09:00:30 in Berlin (winter) is 08:00:30 UTC
        assertThat(flow.trigger().schedule().next(Instant.parse("2026-01-04T12:00:00Z")))
                .contains(Instant.parse("2026-01-05T08:00:30Z"));
        assertThat(flow.trigger().schedule().misfire()).isEqualTo(FlowSchedule.Misfire.SKIP);
    }

    @Test
    void schemaProblemsNameTheStepAndTheField() {
        assertThatThrownBy(() -> parser.parse("""
                name: bad
                steps:
                  - id: fetch
                    http: {method: FETCH, url: "http://x/"}
                  - id: shape
                    transform: 'a'
                    colour: red
                """))
                .isInstanceOfSatisfying(InvalidFlowException.class, e -> {
                    assertThat(e.problems()).anySatisfy(p -> {
                        assertThat(p.at()).isEqualTo("steps[0] (fetch).http.method");
                        assertThat(p.message()).contains("enum");
                    });
                    assertThat(e.problems()).anySatisfy(p -> {
                        assertThat(p.at()).isEqualTo("steps[1] (shape)");
                        assertThat(p.message()).contains("colour");
                    });
                });
    }

    @Test
    void whatTheSchemaCannotSayIsCheckedToo() {
        assertThatThrownBy(() -> parser.parse("""
                name: bad
                trigger: {schedule: {cron: "0 0 25 * * ?", timezone: Mars/Olympus}}
                steps:
                  - {id: a, transform: '{"x": }'}
                  - {id: a, delay: 2h}
                  - {id: both, delay: 1s, transform: '1'}
                  - {id: input, delay: 1s}
                """))
                .isInstanceOfSatisfying(InvalidFlowException.class, e -> assertThat(e.problems())
                        .extracting(FlowProblem::at)
                        .contains("trigger.schedule.cron", "trigger.schedule.timezone", "steps[0] (a).transform",
                                "steps[1] (a).id", "steps[1] (a).delay", "steps[2] (both)", "steps[3] (input).id"));
    }

    @Test
    void documentsThatAreNotJsonOrYamlOrNotFlowsAreRefusedPlainly() {
        assertThatThrownBy(() -> parser.parse("{\"name\": ")).isInstanceOfSatisfying(InvalidFlowException.class,
                e -> assertThat(e.problems().get(0).message()).contains("not valid JSON or YAML"));
        assertThatThrownBy(() -> parser.parse("")).isInstanceOf(InvalidFlowException.class);
        assertThatThrownBy(() -> parser.parse("- a\n- b\n")).isInstanceOfSatisfying(InvalidFlowException.class,
                e -> assertThat(e.problems().get(0).at()).isEqualTo("document"));
        assertThatThrownBy(() -> parser.parse("name: x\n")).isInstanceOfSatisfying(InvalidFlowException.class,
                e -> assertThat(e.getMessage()).contains("steps"));
    }
}
