package io.pylon.manager.auth;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class HashingPoolTest {
    @Test
    void defaultThreadsLeaveOneCoreAndStayWithinTheDefaultHeap() {
        assertThat(HashingPool.defaultThreads(1)).isEqualTo(1);
        assertThat(HashingPool.defaultThreads(2)).isEqualTo(1);
        assertThat(HashingPool.defaultThreads(4)).isEqualTo(3);
        assertThat(HashingPool.defaultThreads(64)).as("19 MiB each: 4 fit the Manager's 192 MiB default heap").isEqualTo(4);
    }
}
