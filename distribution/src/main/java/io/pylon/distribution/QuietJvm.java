package io.pylon.distribution;

/**
 * JVM options every local pod gets, even with PYLON_POD_JAVA_OPTS (which comes after them and may override them):
 * not tuning, but what keeps a start free of warnings that need no action. The data grid's library reads fields
 * through {@code sun.misc.Unsafe} (JDK 23 and later warn about it, four lines per pod), and a Cache pod's grid member
 * needs the JDK internals that Hazelcast names in its "modular environment" warning. scripts/pod-jvm.sh
 * (pylon_pod_quiet_opts) gives `pylon run` the same (PodJvmOptionsTest).
 */
final class QuietJvm {
    /** The first JDK that warns on sun.misc.Unsafe's memory access and knows the option that allows it (JEP 471). */
    static final int UNSAFE_OPTION_JDK = 23;

    /** What a Hazelcast 5 member reads of the JDK (its documentation's list for Java 9 and later, on the class path). */
    static final String GRID_MEMBER = "--add-exports java.base/jdk.internal.ref=ALL-UNNAMED"
            + " --add-opens java.base/java.lang=ALL-UNNAMED --add-opens java.base/sun.nio.ch=ALL-UNNAMED"
            + " --add-opens java.management/sun.management=ALL-UNNAMED"
            + " --add-opens jdk.management/com.sun.management.internal=ALL-UNNAMED";

    private QuietJvm() {
    }

    static String options(String module, int javaMajor) {
        String unsafe = javaMajor >= UNSAFE_OPTION_JDK ? "--sun-misc-unsafe-memory-access=allow" : "";
        String grid = module.equals("cache") ? GRID_MEMBER : "";
        return (unsafe + " " + grid).strip();
    }
}
