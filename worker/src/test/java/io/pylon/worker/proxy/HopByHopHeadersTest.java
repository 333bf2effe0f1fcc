package io.pylon.worker.proxy;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Which headers stay on this hop: the fixed list and what Connection names, parsed without a split per message. */
class HopByHopHeadersTest {
    @Test
    void theCommonConnectionValuesNameNoExtraHeader() {
        assertThat(HopByHopHeaders.of("keep-alive")).isSameAs(HopByHopHeaders.FIXED_ONLY);
        assertThat(HopByHopHeaders.of(" Close ")).isSameAs(HopByHopHeaders.FIXED_ONLY);
        assertThat(HopByHopHeaders.of((String) null)).isSameAs(HopByHopHeaders.FIXED_ONLY);
        assertThat(HopByHopHeaders.of(List.of())).isSameAs(HopByHopHeaders.FIXED_ONLY);
    }

    @Test
    void everyTokenConnectionNamesIsHopByHopInAnyCase() {
        HopByHopHeaders hop = HopByHopHeaders.of("keep-alive,  X-Session-Secret ,,\tX-Other");

        assertThat(hop.isHopByHop("x-session-secret")).isTrue();
        assertThat(hop.isHopByHop("X-SESSION-SECRET")).isTrue();
        assertThat(hop.isHopByHop("X-Other")).isTrue();
        assertThat(hop.isHopByHop("X-Session")).isFalse();
        assertThat(hop.isHopByHop("close")).isFalse();
        assertThat(hop.isHopByHop("Content-Type")).isFalse();
    }

    @Test
    void theFixedListIsHopByHopWhateverConnectionSays() {
        for (String name : List.of("Connection", "KEEP-ALIVE", "Proxy-Connection", "Proxy-Authenticate",
                "Proxy-Authorization", "TE", "Trailer", "Transfer-Encoding", "Upgrade")) {
            assertThat(HopByHopHeaders.FIXED_ONLY.isHopByHop(name)).as(name).isTrue();
        }
        assertThat(HopByHopHeaders.FIXED_ONLY.isHopByHop("")).isFalse();
        assertThat(HopByHopHeaders.FIXED_ONLY.isHopByHop("Tes")).isFalse();
    }

    @Test
    void severalConnectionHeadersAddUp() {
        HopByHopHeaders hop = HopByHopHeaders.of(List.of("close", "X-A, x-b"));

        assertThat(hop.isHopByHop("X-A")).isTrue();
        assertThat(hop.isHopByHop("X-B")).isTrue();
    }
}
