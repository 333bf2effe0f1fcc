package io.pylon.core.http;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The path grammar: the contract's paths under the default segment, and the same grammar under another one. */
class PodPathsTest {

    @Test
    void theDefaultSegmentGivesTheContractsPaths() {
        PodPaths paths = PodPaths.defaults();

        assertThat(paths.segment()).isEqualTo("platform");
        assertThat(paths.root()).isEqualTo("/platform");
        assertThat(paths.management()).isEqualTo("/platform/management");
        assertThat(paths.health()).isEqualTo("/platform/management/health");
        assertThat(paths.live()).isEqualTo("/platform/management/health/live");
        assertThat(paths.ready()).isEqualTo("/platform/management/health/ready");
        assertThat(paths.version()).isEqualTo("/platform/management/version");
        assertThat(paths.diagnostics()).isEqualTo("/platform/diagnostics");
        assertThat(paths.diagnostics("jvm")).isEqualTo("/platform/diagnostics/jvm");
        assertThat(PodPaths.of("platform")).isSameAs(paths);
    }

    @Test
    void anotherSegmentMovesEveryPath() {
        PodPaths paths = PodPaths.of("acme-gw.v2");

        assertThat(paths.ready()).isEqualTo("/acme-gw.v2/management/health/ready");
        assertThat(paths.version()).isEqualTo("/acme-gw.v2/management/version");
        assertThat(paths.diagnostics("threads")).isEqualTo("/acme-gw.v2/diagnostics/threads");
    }

    @Test
    void reservedPathsAreTheRootAndWhatIsUnderItAtASegmentBoundary() {
        PodPaths paths = PodPaths.of("acme");

        assertThat(paths.isReserved("/acme")).isTrue();
        assertThat(paths.isReserved("/acme/")).isTrue();
        assertThat(paths.isReserved("/acme/anything/else")).isTrue();
        assertThat(paths.isReserved("/acmex")).isFalse();
        assertThat(paths.isReserved("/acm")).isFalse();
        assertThat(paths.isReserved("/")).isFalse();
        assertThat(paths.isReserved("/api/acme")).isFalse();
        assertThat(paths.isReserved("/platform/management/health")).isFalse();
    }

    @Test
    void aSegmentThatIsNotOnePathSegmentIsRefused() {
        for (String bad : new String[]{"", "a/b", "a b", "a?b", "caf\u00e9", "a\nb"}) {
            assertThatThrownBy(() -> PodPaths.of(bad)).as(bad).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageNotContaining("\n");
        }
        assertThatThrownBy(() -> PodPaths.of(null)).isInstanceOf(IllegalArgumentException.class);
    }
}
