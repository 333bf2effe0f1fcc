package io.pylon.gateway.model;

import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TrustedProxiesTest {
    private static final TrustedProxies TRUSTED = TrustedProxies.parse(List.of("10.0.0.0/8", " ::1 ", ""));

    @Test
    void blocksMatchTheirAddressesOnly() throws Exception {
        assertThat(TRUSTED.trusts(InetAddress.getByName("10.1.2.3"))).isTrue();
        assertThat(TRUSTED.trusts(InetAddress.getByName("::1"))).isTrue();
        assertThat(TRUSTED.trusts(InetAddress.getByName("11.0.0.1"))).isFalse();
        assertThat(TRUSTED.trusts(null)).isFalse();
        assertThat(TrustedProxies.parse(List.of(" ")).trusts(InetAddress.getByName("10.0.0.1"))).isFalse();
        assertThat(TRUSTED).hasToString("10.0.0.0/8, ::1");
    }

    @Test
    void namesAndBadBlocksAreRefusedWithoutALookup() {
        assertThatThrownBy(() -> TrustedProxies.parse(List.of("proxy.local"))).hasMessageContaining("proxy.local");
        assertThatThrownBy(() -> TrustedProxies.parse(List.of("10.0.0.0/33"))).hasMessageContaining("prefix");
    }

    @Test
    void theClientIsTheRightMostForwardedAddressThatIsNotAProxy() throws Exception {
        InetAddress proxy = InetAddress.getByName("10.0.0.5");
        assertThat(TRUSTED.clientAddress(proxy, "203.0.113.9, 198.51.100.1, 10.0.0.7").getHostAddress())
                .as("a spoofed left-most entry is not believed").isEqualTo("198.51.100.1");
        assertThat(TRUSTED.clientAddress(proxy, "10.0.0.9, 10.0.0.7").getHostAddress())
                .as("all proxies: the left-most").isEqualTo("10.0.0.9");
        assertThat(TRUSTED.clientAddress(proxy, null)).isEqualTo(proxy);
    }

    @Test
    void aStrangersHeaderIsIgnoredAndAnUnreadableHopEndsTheWalk() throws Exception {
        InetAddress stranger = InetAddress.getByName("198.51.100.77");
        assertThat(TRUSTED.clientAddress(stranger, "203.0.113.9")).isEqualTo(stranger);
        InetAddress proxy = InetAddress.getByName("10.0.0.5");
        assertThat(TRUSTED.clientAddress(proxy, "203.0.113.9, evil.example, 10.0.0.7").getHostAddress())
                .isEqualTo("10.0.0.7");
        assertThat(TRUSTED.clientAddress(proxy, "203.0.113.0/24").getHostAddress()).as("a block is not an address")
                .isEqualTo("10.0.0.5");
        assertThat(TrustedProxies.NONE.clientAddress(proxy, "203.0.113.9")).isEqualTo(proxy);
    }
}
