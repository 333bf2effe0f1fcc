package io.pylon.core.diagnostics.postmortem;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The id of a capture, which is also its file name without {@code .json.gz}: {@code <UTC time to the millisecond>-
 * <trigger>-<4 hex digits>}, e.g. {@code 20261123T081502123Z-deadlock-3fa9}. Ids sort by time. Anything else is
 * refused by {@link #parse}, so no caller's text ever becomes part of a path.
 */
public record CaptureId(String text, Instant time, Trigger trigger) {
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmssSSS'Z'", Locale.ROOT)
            .withZone(ZoneOffset.UTC);
    private static final Pattern FORM = Pattern.compile("([0-9]{8}T[0-9]{9}Z)-([a-z]{1,20}(?:-[a-z]{1,20}){0,3})-[0-9a-f]{4}");
    static final String SUFFIX = ".json.gz";

    static CaptureId next(Instant time, Trigger trigger) {
        String text = TIME.format(time) + "-" + trigger.id() + "-"
                + String.format(Locale.ROOT, "%04x", ThreadLocalRandom.current().nextInt(0x10000));
        return new CaptureId(text, time.truncatedTo(java.time.temporal.ChronoUnit.MILLIS), trigger);
    }

    /** The id a caller or a file name gives, when it is one. */
    public static Optional<CaptureId> parse(String text) {
        if (text == null || text.length() > 64) {
            return Optional.empty();
        }
        Matcher m = FORM.matcher(text);
        if (!m.matches()) {
            return Optional.empty();
        }
        Optional<Trigger> trigger = Trigger.of(m.group(2));
        if (trigger.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(new CaptureId(text, TIME.parse(m.group(1), Instant::from), trigger.get()));
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }

    String fileName() {
        return text + SUFFIX;
    }

    @Override
    public String toString() {
        return text;
    }
}
