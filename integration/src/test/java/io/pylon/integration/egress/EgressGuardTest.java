package io.pylon.integration.egress;

import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class EgressGuardTest {

    private static InetAddress[] ip(String... literals) throws Exception {
        InetAddress[] out = new InetAddress[literals.length];
        for (int i = 0; i < literals.length; i++) {
            out[i] = InetAddress.getByName(literals[i]);
        }
        return out;
    }

    @Test
    void anEmptyListAllowsNothing() throws Exception {
        EgressGuard guard = EgressGuard.of(List.of());
        assertThat(guard.allowsNothing()).isTrue();
        assertThatThrownBy(() -> guard.check("api.example.com", ip("93.184.215.14")))
                .isInstanceOf(EgressRefusedException.class).hasMessageContaining("not in pylon.integration.allowed-hosts");
    }

    @Test
    void namesReachPublicAddressesOnly() throws Exception {
        EgressGuard guard = EgressGuard.of(List.of("api.example.com", "*.rates.example"));
        assertThat(guard.check("API.example.com", ip("93.184.215.14"))).hasSize(1);
        assertThat(guard.check("eu.rates.example", ip("2606:2800:220:1::1"))).hasSize(1);
        assertThatThrownBy(() -> guard.check("other.example.com", ip("93.184.215.14")))
                .isInstanceOf(EgressRefusedException.class);
        // a listed name that resolves to an internal address (DNS rebinding, or a mistake) is refused
        for (String internal : List.of("127.0.0.1", "10.1.2.3", "172.20.0.1", "192.168.1.1", "169.254.169.254",
                "169.254.10.10", "100.64.0.1", "0.0.0.0", "::1", "fe80::1", "fd12::1", "fd00:ec2::254", "::ffff:10.0.0.1",
                "::ffff:169.254.169.254")) {
            assertThatThrownBy(() -> guard.check("api.example.com", ip(internal)))
                    .as(internal).isInstanceOf(EgressRefusedException.class).hasMessageContaining("internal addresses");
        }
        // one internal address among public ones refuses the name
        assertThatThrownBy(() -> guard.check("api.example.com", ip("93.184.215.14", "10.0.0.1")))
                .isInstanceOf(EgressRefusedException.class);
    }

    @Test
    void metadataAndMappedLoopbackAreRefusedAsLiteralsToo() throws Exception {
        EgressGuard guard = EgressGuard.of(List.of("*", "127.0.47.0/24"));
        assertThatThrownBy(() -> guard.resolve("169.254.169.254")).isInstanceOf(EgressRefusedException.class)
                .hasMessageContaining("cloud metadata");
        assertThatThrownBy(() -> guard.resolve("[::ffff:127.0.0.1]")).isInstanceOf(EgressRefusedException.class)
                .hasMessageContaining("127.0.0.1").hasMessageContaining("loopback");
        assertThatThrownBy(() -> guard.resolve("[::ffff:7f00:1]")).isInstanceOf(EgressRefusedException.class);
        assertThatThrownBy(() -> guard.resolve("localhost")).isInstanceOf(EgressRefusedException.class);
        assertThat(guard.resolve("127.0.47.9")).hasSize(1);
        assertThat(guard.resolve("[::ffff:127.0.47.9]")).hasSize(1);
    }

    @Test
    void ipAndCidrEntriesAllowInternalAddressesExplicitly() throws Exception {
        EgressGuard guard = EgressGuard.of(List.of("10.0.0.0/8", "fd00::/8", "192.168.1.7"));
        assertThat(guard.check("10.9.8.7", ip("10.9.8.7"))).hasSize(1);
        assertThat(guard.check("svc.cluster.local", ip("10.9.8.7"))).hasSize(1);
        assertThat(guard.check("fd00::5", ip("fd00::5"))).hasSize(1);
        assertThat(guard.check("192.168.1.7", ip("192.168.1.7"))).hasSize(1);
        assertThatThrownBy(() -> guard.check("192.168.1.8", ip("192.168.1.8"))).isInstanceOf(EgressRefusedException.class);
        assertThatThrownBy(() -> guard.check("93.184.215.14", ip("93.184.215.14"))).isInstanceOf(EgressRefusedException.class);
    }

    @Test
    void badEntriesAreNamed() {
        assertThatThrownBy(() -> EgressGuard.of(List.of("10.0.0.0/33"))).hasMessageContaining("10.0.0.0/33");
        assertThatThrownBy(() -> EgressGuard.of(List.of("http://x/"))).hasMessageContaining("http://x/");
    }
}
