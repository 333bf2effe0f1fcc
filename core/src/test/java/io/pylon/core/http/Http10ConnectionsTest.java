package io.pylon.core.http;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

class Http10ConnectionsTest {
    @ParameterizedTest
    @CsvSource({"127.0.0.1, 127.0.0.1:8080", "0:0:0:0:0:0:0:1, [0:0:0:0:0:0:0:1]:8080", "fe80::1%eth0, [fe80::1]:8080",
            "pod.example, pod.example:8080"})
    void anHttp10RequestWithoutHostIsGivenTheListenersAddressAsAHostHeaderCanHoldIt(String address, String host) {
        assertThat(Http10Connections.hostHeader(address, 8080)).isEqualTo(host);
    }
}
