package io.pylon.distribution.cli;

import org.jspecify.annotations.Nullable;

/** Text from the network made safe for a terminal: control characters shown escaped, never interpreted. */
public final class Text {
    private Text() {
    }

    /** {@code value} with every control character (ESC included) as {@code \xNN} or {@code \n}, {@code \t}. */
    public static String printable(@Nullable String value) {
        if (value == null) {
            return "";
        }
        StringBuilder out = new StringBuilder(value.length());
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '\n') {
                out.append("\\n");
            } else if (c == '\t') {
                out.append("\\t");
            } else if (Character.isISOControl(c) || c == '\u2028' || c == '\u2029') {
                out.append(String.format("\\x%02x", (int) c & 0xff));
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    /** Like {@link #printable} but keeping line breaks and tabs: for multi-line text such as a thread dump. */
    public static String printableLines(String value) {
        StringBuilder out = new StringBuilder(value.length());
        for (String line : value.split("\n", -1)) {
            if (!out.isEmpty()) {
                out.append('\n');
            }
            out.append(printable(line.replace("\t", "    ")).replace("\\x0d", ""));
        }
        return out.toString();
    }
}
