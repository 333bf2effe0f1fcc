package io.pylon.worker.proxy;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The Host a route is matched against: without its port, IPv6 literals without brackets. */
class ClientAddressTest {

    @Test
    void thePortIsDropped() {
        assertThat(ClientAddress.hostToMatch("api.example.com:8443")).isEqualTo("api.example.com");
        assertThat(ClientAddress.hostToMatch("api.example.com")).isEqualTo("api.example.com");
        assertThat(ClientAddress.hostToMatch("[::1]:8080")).isEqualTo("::1");
        assertThat(ClientAddress.hostToMatch("[::1]")).isEqualTo("::1");
    }

    @Test
    void theDotEndingAFullyQualifiedNameIsDropped() {
        assertThat(ClientAddress.hostToMatch("api.example.com.")).isEqualTo("api.example.com");
        assertThat(ClientAddress.hostToMatch("api.example.com.:8443")).isEqualTo("api.example.com");
        assertThat(ClientAddress.hostToMatch("api.example.com..")).isEqualTo("api.example.com.");
        assertThat(ClientAddress.hostToMatch(".")).isEqualTo(".");
    }

    @Test
    void oddHostsAreLeftAsTheyCame() {
        assertThat(ClientAddress.hostToMatch(null)).isNull();
        assertThat(ClientAddress.hostToMatch("[::1")).isEqualTo("[::1");
        assertThat(ClientAddress.hostToMatch("")).isEmpty();
    }
}
