package io.pylon.gateway.model;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class CidrTest {
    @Test
    void anAddressLiteralIsReadWithoutLookingUpAName() {
        assertThat(Cidr.addressLiteral("10.1.2.3")).isEqualTo("10.1.2.3");
        assertThat(Cidr.addressLiteral(" 127.0.0.4 ")).isEqualTo("127.0.0.4");
        assertThat(Cidr.addressLiteral("::1")).isEqualTo("0:0:0:0:0:0:0:1");
        assertThat(Cidr.addressLiteral("fd00::a")).isEqualTo("fd00:0:0:0:0:0:0:a");
        for (String notOne : new String[]{null, "", "localhost", "abc", "10.0.0.0/8", "10.1.2", "300.1.2.3", "1.2.3.4:80",
                "::1/128", "10.1.2.3\r\nX: y", "a".repeat(100)}) {
            assertThat(Cidr.addressLiteral(notOne)).as(String.valueOf(notOne)).isNull();
        }
    }
}
