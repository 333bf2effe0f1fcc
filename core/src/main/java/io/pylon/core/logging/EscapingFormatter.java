package io.pylon.core.logging;

import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import java.util.logging.Formatter;
import java.util.logging.LogManager;
import java.util.logging.LogRecord;

/**
 * The one log formatter of a pod (java.util.logging, which Helidon's and Hazelcast's loggers also write to): one
 * record is one line, whatever a client managed to put into it. Every printed field (logger, level, message, each
 * exception's class and message, stack frames) has CR, LF and the other control characters written as escapes
 * ({@code \r}, {@code \n}, {@code \u001b}...), so text from a request cannot start a line that looks like a record of
 * its own; a stack trace's own line breaks are the only ones, and its lines start with a tab or "Caused by:".
 * Messages longer than {@link #MAX_FIELD} characters are cut, so a request cannot make a log line megabytes long.
 *
 * <p>The layout is a {@link String#format} pattern with {@link java.util.logging.SimpleFormatter}'s arguments (1 time,
 * 2 source, 3 logger, 4 level, 5 message, 6 thrown), read from the {@code io.pylon.core.logging.EscapingFormatter.format}
 * logging property. Immutable after construction; handlers call it from any thread.
 */
public final class EscapingFormatter extends Formatter {
    /** Longest message (and exception message) printed, in characters; the rest is counted, not printed. */
    public static final int MAX_FIELD = 4096;
    private static final String DEFAULT_FORMAT = "%1$tY-%1$tm-%1$tdT%1$tH:%1$tM:%1$tS.%1$tL %4$-7s %3$s - %5$s%6$s%n";
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private final String format;

    public EscapingFormatter() {
        String configured = LogManager.getLogManager().getProperty(EscapingFormatter.class.getName() + ".format");
        this.format = configured == null || configured.isBlank() ? DEFAULT_FORMAT : configured;
    }

    @Override
    public String format(LogRecord record) {
        ZonedDateTime time = ZonedDateTime.ofInstant(record.getInstant(), ZoneId.systemDefault());
        String source = record.getSourceClassName() == null ? record.getLoggerName()
                : record.getSourceClassName() + (record.getSourceMethodName() == null ? "" : " " + record.getSourceMethodName());
        String thrown = record.getThrown() == null ? "" : System.lineSeparator() + stackTrace(record.getThrown());
        return String.format(format, time, escape(source), escape(record.getLoggerName()),
                escape(record.getLevel().getLocalizedName()), escape(formatMessage(record)), thrown);
    }

    /** {@code text} on one line: control characters as escapes, cut after {@link #MAX_FIELD} characters. */
    public static String escape(String text) {
        if (text == null) {
            return "null";
        }
        int length = Math.min(text.length(), MAX_FIELD);
        StringBuilder out = null;
        for (int i = 0; i < length; i++) {
            char c = text.charAt(i);
            if (isControl(c)) {
                if (out == null) {
                    out = new StringBuilder(length + 16).append(text, 0, i);
                }
                switch (c) {
                    case '\r' -> out.append("\\r");
                    case '\n' -> out.append("\\n");
                    case '\t' -> out.append("\\t");
                    default -> out.append("\\u").append(HEX[c >> 12 & 15]).append(HEX[c >> 8 & 15])
                            .append(HEX[c >> 4 & 15]).append(HEX[c & 15]);
                }
            } else if (out != null) {
                out.append(c);
            }
        }
        String result = out == null ? text.substring(0, length) : out.toString();
        return text.length() > MAX_FIELD ? result + "...(" + (text.length() - MAX_FIELD) + " more characters)" : result;
    }

    // C0, DEL, C1, and the Unicode line and paragraph separators and bidirectional overrides that terminals honour
    private static boolean isControl(char c) {
        return c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == '\u2028' || c == '\u2029'
                || (c >= '\u202a' && c <= '\u202e') || (c >= '\u2066' && c <= '\u2069');
    }

    /** Like {@link Throwable#printStackTrace()}, with every message and frame escaped. */
    static String stackTrace(Throwable thrown) {
        StringBuilder out = new StringBuilder();
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        append(out, thrown, "", "", new StackTraceElement[0], seen);
        out.setLength(out.length() - System.lineSeparator().length()); // the format's %n ends the record
        return out.toString();
    }

    private static void append(StringBuilder out, Throwable t, String caption, String indent,
                               StackTraceElement[] enclosing, Set<Throwable> seen) {
        if (!seen.add(t)) {
            out.append(indent).append(caption).append("[CIRCULAR REFERENCE: ").append(escape(t.getClass().getName()))
                    .append(']').append(System.lineSeparator());
            return;
        }
        StackTraceElement[] frames = t.getStackTrace();
        int common = 0;
        while (common < frames.length && common < enclosing.length
                && frames[frames.length - 1 - common].equals(enclosing[enclosing.length - 1 - common])) {
            common++;
        }
        out.append(indent).append(caption).append(escape(t.getClass().getName()));
        if (t.getMessage() != null) {
            out.append(": ").append(escape(t.getMessage()));
        }
        out.append(System.lineSeparator());
        for (int i = 0; i < frames.length - common; i++) {
            out.append(indent).append("\tat ").append(escape(frames[i].toString())).append(System.lineSeparator());
        }
        if (common > 0) {
            out.append(indent).append("\t... ").append(common).append(" more").append(System.lineSeparator());
        }
        for (Throwable suppressed : t.getSuppressed()) {
            append(out, suppressed, "Suppressed: ", indent + "\t", frames, seen);
        }
        if (t.getCause() != null) {
            append(out, t.getCause(), "Caused by: ", indent, frames, seen);
        }
    }
}
