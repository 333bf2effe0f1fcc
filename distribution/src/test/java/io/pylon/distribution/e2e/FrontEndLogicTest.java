package io.pylon.distribution.e2e;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Runs the unit tests of the Manager UI's pure JavaScript (pod rows, skew and member checks, thread dump parsing). */
class FrontEndLogicTest {

    @Test
    void nodeUnitTestsPass() {
        BrowserScript.Result result = BrowserScript.node(Map.of(), "--test", "frontend-logic.test.mjs");
        assertThat(result.exitCode()).as(result.output()).isZero();
        assertThat(result.output()).contains("# fail 0").doesNotContain("# pass 0");
    }
}
