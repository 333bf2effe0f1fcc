package io.pylon.core.diagnostics;

import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;

/**
 * The process CPU of one hotthreads call in-process (no HTTP, no JSON), 500 parked platform threads,
 * `samples=5&interval=10ms`, CALLS calls after 20 to warm up, three times. In the core's package (the section is
 * package-private), so compiled and run on the core's class path (from the repository root):
 *   CP="core/target/classes:$(ls ~/.m2/repository/com/fasterxml/jackson/core/jackson-databind/2.20.1/*.jar)"
 *   javac -cp "$CP" -d /tmp/ht bench/diagnostics/HotThreadsCost.java
 *   java -XX:+UseSerialGC -Xss512k -cp "/tmp/ht:$CP" io.pylon.core.diagnostics.HotThreadsCost 40
 */
public class HotThreadsCost {
    public static void main(String[] args) throws Exception {
        for (int i = 0; i < 500; i++) {
            Thread.ofPlatform().daemon().start(() -> {
                while (true) {
                    LockSupport.park();
                }
            });
        }
        var os = (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        HotThreadsSection section = new HotThreadsSection();
        int calls = Integer.parseInt(args[0]);
        DiagnosticsQuery query = DiagnosticsQuery.of(Map.of("interval", List.of("10ms"), "samples", List.of("5")));
        for (int i = 0; i < 20; i++) {
            section.collect(query);
        }
        for (int round = 0; round < 3; round++) {
            long c0 = os.getProcessCpuTime();
            for (int i = 0; i < calls; i++) {
                section.collect(query);
            }
            double perCall = (os.getProcessCpuTime() - c0) / 1e6 / calls;
            System.out.printf("%.2f ms CPU per call, %.2f ms per reading (6 readings)%n", perCall, perCall / 6);
        }
    }
}
