package io.pylon.distribution.cli;

import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;

import static org.assertj.core.api.Assertions.assertThat;

class StartupTraceTest {

    @Test
    void theProcessAgeAgreesWithTheJvmsUptimeWithinItsClockSteps() {
        long uptime = ManagementFactory.getRuntimeMXBean().getUptime();
        long age = StartupTrace.processAgeMillis();
        // the process started a little before the JVM did; the kernel counts in 10 ms steps (boot time in whole seconds
        // would be off by up to 1 s)
        assertThat(age).isBetween(uptime - 20, uptime + 200);
    }
}
