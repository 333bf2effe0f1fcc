package io.pylon.distribution;

import io.pylon.core.testing.Promtool;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** The alert rules in deploy/prometheus: valid, unit-tested by promtool, each with a summary and a runbook line. */
class PrometheusRulesTest {
    private static final Path DIR = Path.of("..", "deploy", "prometheus").toAbsolutePath().normalize();

    @Test
    void rulesAreValid() {
        Promtool.Result result = Promtool.run("", "check", "rules", DIR.resolve("pylon-rules.yml").toString());
        assertThat(result.exitCode()).as(result.output()).isZero();
        assertThat(result.output()).contains("SUCCESS: 10 rules found");
    }

    @Test
    void rulesPassTheirUnitTests() {
        Promtool.Result result = Promtool.run("", "test", "rules",
                DIR.resolve("tests").resolve("pylon-rules.test.yml").toString());
        assertThat(result.exitCode()).as(result.output()).isZero();
        assertThat(result.output()).contains("SUCCESS");
    }

    @Test
    void everyAlertHasASummaryAndARunbookLineInTheDocs() throws IOException {
        String rules = Files.readString(DIR.resolve("pylon-rules.yml"));
        String docs = Files.readString(Path.of("..", "docs", "metrics.md"));
        Matcher alert = Pattern.compile("(?m)^\\s+- alert: (\\w+)$").matcher(rules);
        int count = 0;
        while (alert.find()) {
            count++;
            String name = alert.group(1);
            assertThat(docs).as("runbook of " + name + " in docs/metrics.md").containsPattern("(?m)^### " + name + "$");
        }
        assertThat(count).isEqualTo(10);
        assertThat(rules.split("summary: ", -1)).hasSize(count + 1);
        assertThat(rules.split("runbook: ", -1)).hasSize(count + 1);
    }
}
