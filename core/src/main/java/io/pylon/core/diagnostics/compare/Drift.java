package io.pylon.core.diagnostics.compare;

import org.jspecify.annotations.Nullable;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * What differs between pods that should be alike: the versions, commits and Java versions that are not the same on
 * every pod, and the environment variables whose value differs (or that some pods lack), by name, with the pods
 * grouped by the keyed hash of their value. A masked variable's groups carry only the hash, never a value; an
 * unmasked one's carry the value too. Only what differs is listed; the largest group comes first, so the odd pods
 * are the later groups. Stateless.
 */
public final class Drift {
    /** Hex digits of the keyed hash shown: 48 bits tell groups apart and say less about the value than all 256. */
    static final int SHOWN_HASH_DIGITS = 12;
    private static final String UNKNOWN = "unknown";

    private Drift() {
    }

    /** One group of pods sharing a value; {@code hash} null and {@code absent} true for the pods without it. */
    public record Group(@Nullable String value, @Nullable String hash, boolean absent, List<String> pods) {
    }

    /** One environment variable that differs between pods. */
    public record EnvDrift(String name, boolean masked, List<Group> groups) {
    }

    public record Report(boolean drifted, List<Group> versions, List<Group> commits, List<Group> javaVersions,
                         List<EnvDrift> env) {
    }

    public static Report of(List<PodFacts> pods) {
        List<Group> versions = differing(pods, PodFacts::version);
        List<Group> commits = differing(pods, PodFacts::commit);
        List<Group> javaVersions = differing(pods, PodFacts::javaVersion);
        List<EnvDrift> env = env(pods);
        boolean drifted = !versions.isEmpty() || !commits.isEmpty() || !javaVersions.isEmpty() || !env.isEmpty();
        return new Report(drifted, versions, commits, javaVersions, env);
    }

    private static List<Group> differing(List<PodFacts> pods, Function<PodFacts, String> fact) {
        Map<String, List<String>> byValue = new TreeMap<>();
        for (PodFacts pod : pods) {
            String value = Objects.requireNonNullElse(fact.apply(pod), UNKNOWN);
            byValue.computeIfAbsent(value, v -> new ArrayList<>()).add(pod.podName());
        }
        if (byValue.size() < 2) {
            return List.of();
        }
        List<Group> groups = new ArrayList<>();
        byValue.forEach((value, names) -> groups.add(new Group(value, null, false, sorted(names))));
        return largestFirst(groups);
    }

    private static List<EnvDrift> env(List<PodFacts> pods) {
        // a pod whose env section failed knows nothing of its variables: it is left out rather than "unset"
        Map<String, Map<String, PodFacts.EnvValue>> known = new LinkedHashMap<>();
        for (PodFacts pod : pods) {
            Map<String, PodFacts.EnvValue> env = pod.env();
            if (env != null) {
                known.put(pod.podName(), env);
            }
        }
        TreeSet<String> names = new TreeSet<>();
        known.values().forEach(env -> names.addAll(env.keySet()));
        List<EnvDrift> drift = new ArrayList<>();
        for (String name : names) {
            Map<String, List<String>> byHash = new LinkedHashMap<>();
            Map<String, String> shown = new LinkedHashMap<>();
            List<String> absent = new ArrayList<>();
            boolean masked = false;
            for (Map.Entry<String, Map<String, PodFacts.EnvValue>> pod : known.entrySet()) {
                PodFacts.EnvValue value = pod.getValue().get(name);
                if (value == null) {
                    absent.add(pod.getKey());
                    continue;
                }
                masked |= value.masked();
                byHash.computeIfAbsent(value.hash(), h -> new ArrayList<>()).add(pod.getKey());
                shown.putIfAbsent(value.hash(), value.value());
            }
            if (byHash.size() + (absent.isEmpty() ? 0 : 1) < 2) {
                continue;
            }
            List<Group> groups = new ArrayList<>();
            for (Map.Entry<String, List<String>> entry : byHash.entrySet()) {
                // one pod masking the variable hides it on all: the key decides masking, the value may too
                String value = masked ? null : shown.get(entry.getKey());
                groups.add(new Group(value, shorten(entry.getKey()), false, sorted(entry.getValue())));
            }
            if (!absent.isEmpty()) {
                groups.add(new Group(null, null, true, sorted(absent)));
            }
            drift.add(new EnvDrift(name, masked, largestFirst(groups)));
        }
        return drift;
    }

    private static String shorten(String hash) {
        return hash.length() > SHOWN_HASH_DIGITS ? hash.substring(0, SHOWN_HASH_DIGITS) : hash;
    }

    private static List<String> sorted(List<String> names) {
        return names.stream().sorted().toList();
    }

    private static List<Group> largestFirst(List<Group> groups) {
        return groups.stream().sorted(Comparator.comparingInt((Group g) -> -g.pods().size())
                .thenComparing(g -> g.pods().getFirst())).toList();
    }
}
