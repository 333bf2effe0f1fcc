package io.pylon.worker.proxy;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The Host a route is matched against: without its port, IPv6 literals without brackets. */
class ClientAddressTest {

    @Test
    void thePortIsDropped() {
        assertThat(ClientAddress.hostWithoutPort("api.example.com:8443")).isEqualTo("api.example.com");
        assertThat(ClientAddress.hostWithoutPort("api.example.com")).isEqualTo("api.example.com");
        assertThat(ClientAddress.hostWithoutPort("[::1]:8080")).isEqualTo("::1");
        assertThat(ClientAddress.hostWithoutPort("[::1]")).isEqualTo("::1");
    }

    @Test
    void oddHostsAreLeftAsTheyCame() {
        assertThat(ClientAddress.hostWithoutPort(null)).isNull();
        assertThat(ClientAddress.hostWithoutPort("[::1")).isEqualTo("[::1");
        assertThat(ClientAddress.hostWithoutPort("")).isEmpty();
    }
}
