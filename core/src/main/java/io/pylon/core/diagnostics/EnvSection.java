package io.pylon.core.diagnostics;

import org.jspecify.annotations.Nullable;

import java.lang.management.ManagementFactory;
import java.lang.management.RuntimeMXBean;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * {@code env}: the process's environment variables, the system properties and the JVM's input arguments, sorted,
 * every value passed through the {@link SecretMasker}. With {@code ?digest=<nonce>} (what {@code compare} asks) it
 * answers only {@code environmentDigests}: per variable the keyed hash of its real value ({@link EnvDigest}) and the
 * value itself only where masking would leave it whole, so that pods can be compared on values nobody may see.
 *
 * <p>Threading: stateless besides immutable collaborators; calls run concurrently.
 */
final class EnvSection implements DiagnosticSection {
    private final SecretMasker masker;
    private final Supplier<Map<String, String>> environment;
    private final RuntimeMXBean runtime = ManagementFactory.getRuntimeMXBean();

    private final EnvDigest digest;

    EnvSection(SecretMasker masker, EnvDigest digest, Supplier<Map<String, String>> environment) {
        this.masker = masker;
        this.digest = digest;
        this.environment = environment;
    }

    @Override
    public String name() {
        return "env";
    }

    @Override
    public void validate(String method, DiagnosticsQuery query) {
        nonce(query);
    }

    @Override
    public Object collect(DiagnosticsQuery query) {
        String nonce = nonce(query);
        return nonce == null ? collect() : digests(digest.forNonce(nonce));
    }

    private Map<String, Object> digests(EnvDigest.Hasher hasher) {
        Map<String, Object> variables = new TreeMap<>();
        environment.get().forEach((key, value) -> {
            Map<String, String> entry = new LinkedHashMap<>();
            entry.put("hash", hasher.hash(key, value));
            String shown = masker.mask(key, value);
            if (value.equals(shown)) {
                entry.put("value", value);
            }
            variables.put(key, entry);
        });
        return Map.of("environmentDigests", variables);
    }

    private static @Nullable String nonce(DiagnosticsQuery query) {
        String nonce = query.text("digest").orElse(null);
        if (nonce != null && !EnvDigest.NONCE.matcher(nonce).matches()) {
            throw new InvalidParameterException("digest", "The query parameter 'digest' must be 16 to 64 hex digits.");
        }
        return nonce;
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
