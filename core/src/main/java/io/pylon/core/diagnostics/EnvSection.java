package io.pylon.core.diagnostics;

import java.lang.management.ManagementFactory;
import java.lang.management.RuntimeMXBean;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * {@code env}: the process's environment variables, the system properties and the JVM's input arguments, sorted,
 * every value passed through the {@link SecretMasker}.
 */
final class EnvSection implements DiagnosticSection {
    private final SecretMasker masker;
    private final Supplier<Map<String, String>> environment;
    private final RuntimeMXBean runtime = ManagementFactory.getRuntimeMXBean();

    EnvSection(SecretMasker masker, Supplier<Map<String, String>> environment) {
        this.masker = masker;
        this.environment = environment;
    }

    @Override
    public String name() {
        return "env";
    }

    @Override
    public Object collect() {
        Map<String, Object> env = new LinkedHashMap<>();
        Map<String, String> variables = new TreeMap<>();
        environment.get().forEach((key, value) -> variables.put(key, masker.mask(key, value)));
        env.put("environment", variables);
        Map<String, String> properties = new TreeMap<>();
        Properties system = System.getProperties();
        for (String key : system.stringPropertyNames()) {
            properties.put(key, masker.mask(key, system.getProperty(key)));
        }
        env.put("systemProperties", properties);
        env.put("jvmArguments", masker.maskAll(runtime.getInputArguments()));
        return env;
    }
}
