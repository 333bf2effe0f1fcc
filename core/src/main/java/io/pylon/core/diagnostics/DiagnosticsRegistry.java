package io.pylon.core.diagnostics;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The diagnostic sections of a pod, in registration order. Modules add their own in {@code start}.
 *
 * <p>Threading: modules register sections while the pod starts, request threads look them up; every method holds this
 * object's monitor, and {@link #all} returns a copy.
 */
public final class DiagnosticsRegistry {
    private final Map<String, DiagnosticSection> sections = new LinkedHashMap<>();

    public synchronized void register(DiagnosticSection section) {
        if (sections.putIfAbsent(section.name(), section) != null) {
            throw new IllegalArgumentException("a diagnostic section named '" + section.name() + "' is registered already");
        }
    }

    public synchronized Optional<DiagnosticSection> find(String name) {
        DiagnosticSection section = sections.get(name);
        if (section != null) {
            return Optional.of(section);
        }
        return sections.values().stream().filter(s -> s.aliases().contains(name)).findFirst();
    }

    public synchronized Collection<DiagnosticSection> all() {
        return java.util.List.copyOf(sections.values());
    }
}
