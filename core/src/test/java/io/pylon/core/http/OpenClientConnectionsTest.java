package io.pylon.core.http;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class OpenClientConnectionsTest {

    // /proc/net/tcp: port 8091 is 1F9B; state 0A = LISTEN, 01 = ESTABLISHED, 06 = TIME_WAIT
    private static final List<String> TABLE = List.of(
            "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode",
            "   0: 0400007F:1F9B 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1001 1 0 100 0 0 10 0",
            "   1: 0400007F:1F9B 0100007F:A1B2 01 00000000:00000000 00:00000000 00000000     0        0 1002 1 0 20 4 30 10 -1",
            "   2: 0400007F:1F9B 0100007F:A1B3 01 00000000:00000000 00:00000000 00000000     0        0 1003 1 0 20 4 30 10 -1",
            "   3: 0400007F:1F9B 0100007F:A1B4 06 00000000:00000000 03:00000F9B 00000000     0        0 0 3 0",
            "   4: 0100007F:A1B2 0400007F:1F9B 01 00000000:00000000 00:00000000 00000000     0        0 1004 1 0 20 4 30 10 -1",
            "   5: 0400007F:1F9B 0100007F:A1B5 01 00000000:00000000 00:00000000 00000000     0        0 2002 1 0 20 4 30 10 -1");

    @Test
    void countsEstablishedSocketsOfThisProcessOnTheServerPort() {
        // 1002 and 1003 are ours and established on 8091; 1001 listens; 1004 is our client side; 2002 is another process's
        assertThat(OpenClientConnections.countIn(TABLE, 8091, Set.of("1001", "1002", "1003", "1004"))).isEqualTo(2);
        assertThat(OpenClientConnections.countIn(TABLE, 8092, Set.of("1001", "1002", "1003", "1004"))).isZero();
    }

    @Test
    void unknownPortIsNotCounted() {
        assertThat(OpenClientConnections.count(0)).isEmpty();
    }
}
