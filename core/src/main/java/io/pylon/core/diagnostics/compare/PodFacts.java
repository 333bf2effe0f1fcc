package io.pylon.core.diagnostics.compare;

import com.fasterxml.jackson.databind.JsonNode;
import org.jspecify.annotations.Nullable;

import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.TreeMap;

/**
 * What {@code compare} keeps of one pod's answer: who it is, its build, its health status, one number per
 * {@link CompareMetric} it reports, and the keyed hash of each environment variable (with the value only where it is
 * not masked). A few kilobytes per pod (mostly the environment hashes), taken as the answer arrives, so the answer itself can be dropped at once.
 * Immutable.
 *
 * @param env by variable name, ignored names left out; null when the pod's env section failed, so that its
 *            variables count as unknown rather than unset
 */
public record PodFacts(String podName, @Nullable String podIp, @Nullable String version, @Nullable String commit, @Nullable String javaVersion, @Nullable String status,
                       Map<String, Double> metrics, @Nullable Map<String, EnvValue> env) {

    /** One environment variable as a pod reports it to a comparison. */
    public record EnvValue(String hash, @Nullable String value) {
        public boolean masked() {
            return value == null;
        }
    }

    /**
     * Reads the facts from one pod's answer to {@code all?sections=...&digest=...}.
     *
     * @param ignoredEnv variable names that differ between pods by design (HOSTNAME...), not kept
     */
    public static PodFacts of(JsonNode answer, Set<String> ignoredEnv) {
        Map<String, Double> metrics = new LinkedHashMap<>();
        for (CompareMetric metric : CompareMetric.values()) {
            OptionalDouble value = metric.read(answer);
            if (value.isPresent()) {
                metrics.put(metric.key(), value.getAsDouble());
            }
        }
        Map<String, EnvValue> env = new TreeMap<>();
        JsonNode digests = answer.path("env").path("environmentDigests");
        for (Iterator<Map.Entry<String, JsonNode>> it = digests.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> variable = it.next();
            String hash = variable.getValue().path("hash").asText(null);
            if (hash == null || ignoredEnv.contains(variable.getKey())) {
                continue;
            }
            JsonNode value = variable.getValue().path("value");
            env.put(variable.getKey(), new EnvValue(hash, value.isTextual() ? value.asText() : null));
        }
        if (!digests.isObject()) {
            env = null;
        }
        JsonNode build = answer.path("health").path("build");
        return new PodFacts(answer.path("podName").asText(), text(answer.path("podIp")), text(answer.path("version")),
                text(build.path("commit")), text(answer.path("health").path("system").path("javaVersion")),
                text(answer.path("health").path("status")), Collections.unmodifiableMap(metrics),
                env == null ? null : Collections.unmodifiableMap(env));
    }

    private static @Nullable String text(JsonNode node) {
        return node.isValueNode() && !node.isNull() ? node.asText() : null;
    }
}
