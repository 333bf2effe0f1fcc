package io.pylon.integration.step;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class StepRunnerTest {
    @Test
    void errorsNameAUrlWithoutItsCredentialsOrQuery() {
        assertThat(StepRunner.withoutCredentials("https://user:s3cret@api.example.com:8443/v1/rates?key=abc"))
                .isEqualTo("https://api.example.com:8443/v1/rates");
        assertThat(StepRunner.withoutCredentials("http://[::1]/x")).isEqualTo("http://[::1]/x");
        assertThat(StepRunner.withoutCredentials("not a url")).isEqualTo("(a URL)");
    }
}
