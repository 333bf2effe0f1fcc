package io.pylon.integration.flow;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Durations as flow documents write them: {@code 500ms}, {@code 5s}, {@code 2m}, {@code 1h}. */
public final class Durations {
    private static final Pattern FORM = Pattern.compile("([0-9]{1,9})(ms|s|m|h)");

    private Durations() {
    }

    /** @throws IllegalArgumentException when the text is not such a duration */
    public static Duration parse(String text) {
        Matcher m = FORM.matcher(text);
        if (!m.matches()) {
            throw new IllegalArgumentException("not a duration such as 500ms, 5s, 2m or 1h: " + text);
        }
        long n = Long.parseLong(m.group(1));
        return switch (m.group(2)) {
            case "ms" -> Duration.ofMillis(n);
            case "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            default -> Duration.ofHours(n);
        };
    }

    /** The shortest text that {@link #parse} reads back as the same duration. */
    public static String format(Duration d) {
        long ms = d.toMillis();
        if (ms % 3_600_000 == 0 && ms > 0) {
            return ms / 3_600_000 + "h";
        }
        if (ms % 60_000 == 0 && ms > 0) {
            return ms / 60_000 + "m";
        }
        if (ms % 1000 == 0) {
            return ms / 1000 + "s";
        }
        return ms + "ms";
    }
}
