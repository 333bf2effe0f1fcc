package io.pylon.distribution;

import io.pylon.core.config.Setting;
import io.pylon.core.config.Settings;
import io.pylon.core.server.PodServer;
import io.pylon.core.server.PylonModule;
import org.jspecify.annotations.Nullable;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The {@code PYLON_*} environment variables and {@code pylon.*} system properties a pod is given that no module reads:
 * a misspelled setting ({@code PYLON_WORKER_ROUTES_FIL} for {@code PYLON_WORKER_ROUTES_FILE}) would otherwise be ignored in
 * silence and the pod run on the default. Every module's settings count, not only the started one's: the Kubernetes
 * manifests give all pods one ConfigMap. Only names are reported, never values (a value may be a secret).
 */
final class UnknownSettings {
    /**
     * Variables read before or beside the JVM rather than as settings: the launcher's (the {@code pylon} script and
     * scripts/), the container image's entrypoint and training run, and the CLI's. UnknownSettingsTest checks that every
     * such name in the repository's scripts, manifests and docs is a setting or listed here.
     */
    static final Set<String> OTHER_VARIABLES = Set.of(
            "PYLON_JAVA", "PYLON_JAVA_OPTS", "PYLON_JDK_DIRS", "PYLON_POD_BASE_JVM_OPTS", "PYLON_POD_JAVA_OPTS",
            "PYLON_POD_JVM_OPTS", "PYLON_CLI_JAVA_OPTS", "PYLON_CLI_JVM_OPTS", "PYLON_CLI_TRACE", "PYLON_CONFIG",
            "PYLON_CONFIG_FILE", "PYLON_CACHE", "PYLON_HOME", "PYLON_IMAGE_JVM_OPTS", "PYLON_CONTAINER_CACHE",
            "PYLON_AOT_DIR", "PYLON_AOT_TRAINING", "PYLON_AOT_TRAINING_ADDRESS", "PYLON_AOT_TRAINING_TIMEOUT");

    /**
     * What Kubernetes puts in every pod for each Service of the namespace (service links): a Service named
     * {@code pylon-manager} gives {@code PYLON_MANAGER_SERVICE_HOST}, {@code PYLON_MANAGER_PORT_8090_TCP_ADDR} and so on.
     */
    private static final Pattern SERVICE_LINK = Pattern.compile(
            "PYLON_[A-Z0-9_]+_(SERVICE_HOST|SERVICE_PORT(_[A-Z0-9_]+)?|PORT(_\\d+_(TCP|UDP|SCTP)(_(PROTO|PORT|ADDR))?)?)");

    private final Set<String> envNames = new TreeSet<>();
    private final Set<String> keys = new TreeSet<>();

    private UnknownSettings(List<Setting<?>> settings) {
        for (Setting<?> setting : settings) {
            envNames.add(setting.envName());
            keys.add(setting.key());
        }
        keys.add(Settings.CONFIG_FILE_KEY);
    }

    /**
     * The warnings for a pod of {@code started}: names that the started module reads are settled without loading the
     * other modules' settings (a pod's start-up is measured), the rest against every module's.
     */
    static List<String> warningsFor(PylonModule started, Map<String, String> environment,
            Map<String, String> systemProperties) {
        if (new UnknownSettings(PodServer.settingsOf(started)).warnings(environment, systemProperties).isEmpty()) {
            return List.of();
        }
        return ofAllModules().warnings(environment, systemProperties);
    }

    /** Every setting of every module, and the pod-level ones. */
    static UnknownSettings ofAllModules() {
        List<Setting<?>> settings = new ArrayList<>(PodServer.podSettings(0));
        for (PylonModule module : Modules.all()) {
            settings.addAll(PodServer.settingsOf(module));
        }
        return new UnknownSettings(settings);
    }

    boolean isKnownVariable(String name) {
        return envNames.contains(name) || OTHER_VARIABLES.contains(name) || SERVICE_LINK.matcher(name).matches();
    }

    /** One line per unknown name, sorted, each naming the closest setting when one is near. */
    List<String> warnings(Map<String, String> environment, Map<String, String> systemProperties) {
        List<String> lines = new ArrayList<>();
        for (String name : new TreeSet<>(environment.keySet())) {
            if (name.startsWith("PYLON_") && !isKnownVariable(name)) {
                lines.add(line("environment variable " + name, closest(name, envNames)));
            }
        }
        for (String key : new TreeSet<>(systemProperties.keySet())) {
            if (key.startsWith("pylon.") && !keys.contains(key)) {
                lines.add(line("system property " + key, closest(key, keys)));
            }
        }
        return lines;
    }

    private static String line(String what, @Nullable String closest) {
        return what + " is not a Pylon setting and is ignored" + (closest == null ? "" : "; did you mean " + closest + "?");
    }

    /** The known name fewest single-character edits away, when that is at most a quarter of the name (at least 2). */
    static @Nullable String closest(String name, Set<String> known) {
        int limit = Math.max(2, name.length() / 4);
        String best = null;
        int bestDistance = limit + 1;
        for (String candidate : known) {
            if (Math.abs(candidate.length() - name.length()) >= bestDistance) {
                continue;
            }
            int distance = distance(name, candidate);
            if (distance < bestDistance) {
                best = candidate;
                bestDistance = distance;
            }
        }
        return best;
    }

    /** Levenshtein distance. */
    private static int distance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
