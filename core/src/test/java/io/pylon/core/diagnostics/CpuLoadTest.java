package io.pylon.core.diagnostics;

import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

class CpuLoadTest {
    @Test
    void readsTheJdkAtMostOnceASecond() throws Exception {
        AtomicInteger reads = new AtomicInteger();
        com.sun.management.OperatingSystemMXBean os = (com.sun.management.OperatingSystemMXBean) Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[]{com.sun.management.OperatingSystemMXBean.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "getProcessCpuLoad" -> 0.25 + reads.incrementAndGet() / 100.0;
                    case "getCpuLoad" -> 0.5;
                    default -> throw new UnsupportedOperationException(method.getName());
                });
        CpuLoad load = new CpuLoad(os);

        CpuLoad.Sample first = load.current();
        for (int i = 0; i < 100; i++) {
            assertThat(load.current()).isSameAs(first);
        }
        assertThat(reads).hasValue(1);
        assertThat(first.process()).isEqualTo(0.26);
        assertThat(first.system()).isEqualTo(0.5);

        Thread.sleep(1_050);
        assertThat(load.current().process()).isEqualTo(0.27);
        assertThat(reads).hasValue(2);
    }
}
