package io.pylon.distribution.cli;

import org.jspecify.annotations.Nullable;

import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * Runs a call for a pod named on the command line without the operator naming its module: the module the name
 * suggests first (a name containing "cache" is probably a Cache pod), the other one when that module's pods answer
 * 404 (no such pod).
 */
final class PodLocator {
    private PodLocator() {
    }

    static <T> T call(String pod, @Nullable String module, Function<String, Attempt<T>> call) {
        List<String> order = module != null ? ModuleNames.diagnosable(module)
                : pod.contains("cache") ? List.of("cache", "worker") : List.of("worker", "cache");
        String description = null;
        for (String candidate : order) {
            Attempt<T> attempt = call.apply(candidate);
            if (!attempt.notFound()) {
                return attempt.found();
            }
            description = attempt.description();
        }
        throw CliException.failed("No pod named '" + Text.printable(pod) + "' in " + String.join(" or ", order)
                + (description == null ? "" : " (" + Text.printable(description) + ")") + ".");
    }

    /** What one try gave: a value, or that the module has no such pod. */
    record Attempt<T>(@Nullable T value, boolean notFound, @Nullable String description) {
        T found() {
            return Objects.requireNonNull(value, "a pod that was found has a value");
        }

        static <T> Attempt<T> found(T value) {
            return new Attempt<>(value, false, null);
        }

        static <T> Attempt<T> missing(@Nullable String description) {
            return new Attempt<>(null, true, description);
        }
    }
}
