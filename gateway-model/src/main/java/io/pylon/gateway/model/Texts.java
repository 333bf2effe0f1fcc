package io.pylon.gateway.model;

/** Text from a definition made safe to quote in a message: control characters replaced, long text cut. */
final class Texts {
    private static final int QUOTED = 80;
    private static final java.util.regex.Pattern CONTROL = java.util.regex.Pattern.compile("\\p{Cntrl}");

    private Texts() {
    }

    static String printable(String text) {
        if (text == null) {
            return "null";
        }
        String cut = text.length() > QUOTED ? text.substring(0, QUOTED) + "...(" + text.length() + " chars)" : text;
        for (int i = 0; i < cut.length(); i++) {
            if (Character.isISOControl(cut.charAt(i))) {
                return CONTROL.matcher(cut).replaceAll("?");
            }
        }
        return cut; // the common case: every proxy's name is quoted in its context, so no regex per proxy
    }
}
