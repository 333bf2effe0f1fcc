package io.pylon.core.diagnostics;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The query parameters of one diagnostics call, HTTP-free, with bounded typed reads: a value of the wrong form or out
 * of its bounds throws {@link InvalidParameterException} naming the parameter and its bounds (answered 400). The same
 * query reaches this pod's answer and, in a broadcast, every peer. Immutable.
 */
public final class DiagnosticsQuery {
    public static final DiagnosticsQuery EMPTY = new DiagnosticsQuery(Map.of());

    private static final Pattern DURATION = Pattern.compile("(\\d{1,9})(ms|s|m|h)?");

    private final Map<String, List<String>> parameters;

    private DiagnosticsQuery(Map<String, List<String>> parameters) {
        this.parameters = parameters;
    }

    public static DiagnosticsQuery of(Map<String, List<String>> parameters) {
        return new DiagnosticsQuery(Map.copyOf(parameters));
    }

    public Map<String, List<String>> parameters() {
        return parameters;
    }

    /** The first value, absent when the parameter is missing or empty. */
    public Optional<String> text(String name) {
        List<String> values = parameters.get(name);
        if (values == null || values.isEmpty() || values.getFirst().isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(values.getFirst());
    }

    public int integer(String name, int fallback, int min, int max) {
        Optional<String> raw = text(name);
        if (raw.isEmpty()) {
            return fallback;
        }
        try {
            int value = Integer.parseInt(raw.get());
            if (value >= min && value <= max) {
                return value;
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw new InvalidParameterException(name, "The query parameter '" + name + "' must be a whole number from "
                + min + " to " + max + ".");
    }

    public boolean bool(String name, boolean fallback) {
        Optional<String> raw = text(name);
        if (raw.isEmpty()) {
            return fallback;
        }
        return switch (raw.get().toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new InvalidParameterException(name, "The query parameter '" + name + "' must be true or false.");
        };
    }

    /** A duration written {@code 250ms}, {@code 5s}, {@code 10m}, {@code 1h} (a bare number is milliseconds). */
    public Duration duration(String name, Duration fallback, Duration min, Duration max) {
        Optional<String> raw = text(name);
        if (raw.isEmpty()) {
            return fallback;
        }
        Matcher m = DURATION.matcher(raw.get().toLowerCase(Locale.ROOT));
        if (m.matches()) {
            long amount = Long.parseLong(m.group(1));
            String unit = m.group(2) == null ? "ms" : m.group(2);
            Duration value = switch (unit) {
                case "s" -> Duration.ofSeconds(amount);
                case "m" -> Duration.ofMinutes(amount);
                case "h" -> Duration.ofHours(amount);
                default -> Duration.ofMillis(amount);
            };
            if (value.compareTo(min) >= 0 && value.compareTo(max) <= 0) {
                return value;
            }
        }
        throw new InvalidParameterException(name, "The query parameter '" + name + "' must be a duration such as 500ms, "
                + "5s or 10m, from " + show(min) + " to " + show(max) + ".");
    }

    /** One of a fixed set of words, case-insensitive; answered in lower case. */
    public String choice(String name, String fallback, List<String> allowed) {
        Optional<String> raw = text(name);
        if (raw.isEmpty()) {
            return fallback;
        }
        String value = raw.get().toLowerCase(Locale.ROOT);
        if (allowed.contains(value)) {
            return value;
        }
        throw new InvalidParameterException(name, "The query parameter '" + name + "' must be one of "
                + String.join(", ", allowed) + ".");
    }

    /** A required parameter. */
    public String required(String name) {
        return text(name).orElseThrow(() -> new InvalidParameterException(name,
                "The query parameter '" + name + "' is required."));
    }

    static String show(Duration d) {
        if (d.toMillis() % 3_600_000 == 0) {
            return d.toHours() + "h";
        }
        if (d.toMillis() % 60_000 == 0) {
            return d.toMinutes() + "m";
        }
        if (d.toMillis() % 1000 == 0) {
            return d.toSeconds() + "s";
        }
        return d.toMillis() + "ms";
    }
}
