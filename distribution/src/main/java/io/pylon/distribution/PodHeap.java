package io.pylon.distribution;

import io.pylon.core.config.Settings;
import io.pylon.core.pod.CoreSettings;

import java.util.Map;

/**
 * The collector and heap options of a pod that `pylon up` starts: {@code -Xmx} from PYLON_POD_HEAP_MAX or the module's
 * default; with the serial collector a fixed young generation of a quarter of it, large enough that request garbage
 * dies young instead of filling the old generation; the Manager's G1 sizes its young generation itself to meet its pause goal.
 * scripts/pod-jvm.sh computes the same for `pylon run` (PodJvmOptionsTest).
 */
final class PodHeap {
    private PodHeap() {
    }

    /** The default maximum heap of a module's pod, in MiB (the Manager's holds 19 MiB per Argon2id hashing thread). */
    static long defaultMib(String module) {
        return switch (module) {
            case "manager" -> 192;
            case "cache" -> 256;
            case "worker", "integration" -> 128;
            default -> 64;
        };
    }

    /**
     * The collector of a module's pod: the serial one (one or two cores, the least memory, no collector threads), but
     * G1 with a 5 ms pause goal for the Manager, whose serial young pauses copied what survived (14-42 ms under token
     * load against a 10 ms target; G1's stayed under 9 ms at Serial's start-up and memory, where ZGC cost start-up
     * and RSS: BENCHMARKS.md, "Start-up and memory").
     */
    static String collector(String module) {
        return module.equals("manager") ? "-XX:+UseG1GC -XX:MaxGCPauseMillis=5" : "-XX:+UseSerialGC";
    }

    /**
     * {@code -Xms<n/4+16>m -Xmx<n>m -Xmn<n/4>m} ({@code -Xmn} only with the serial collector), the size read from
     * {@code environment} as the setting reads it. The initial heap holds the young generation and 16 MiB of old:
     * smaller, the JVM shrinks the young generation, and an AOT cache's archived objects no longer fit the old one
     * (the JVM then refuses to start).
     *
     * @throws io.pylon.core.config.InvalidSettingException naming the setting when its value is not a valid size
     */
    static String options(String module, Map<String, String> environment) {
        String raw = environment.get(CoreSettings.HEAP_MAX.envName());
        Long configured = Settings.of(raw == null ? Map.of() : Map.of(CoreSettings.HEAP_MAX.key(), raw)).find(CoreSettings.HEAP_MAX);
        long mib = configured != null ? configured : defaultMib(module);
        String bounds = "-Xms" + (mib / 4 + 16) + "m -Xmx" + mib + "m";
        return collector(module).equals("-XX:+UseSerialGC") ? bounds + " -Xmn" + mib / 4 + "m" : bounds;
    }
}
