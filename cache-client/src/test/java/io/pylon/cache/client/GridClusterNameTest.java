package io.pylon.cache.client;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class GridClusterNameTest {

    @Test
    void differsBetweenEnvironmentsOfTheSameNameAndNeverShowsTheId() {
        String one = GridClusterName.of("local", "0123456789abcdef01234567");
        String two = GridClusterName.of("local", "fedcba9876543210fedcba98");
        assertThat(one).isNotEqualTo(two).startsWith("pylon-local-").doesNotContain("0123456789abcdef");
        assertThat(one).isEqualTo(GridClusterName.of("local", "0123456789abcdef01234567"));
        assertThat(GridClusterName.of("Prod EU", null)).isEqualTo("pylon-prod-eu");
    }
}
