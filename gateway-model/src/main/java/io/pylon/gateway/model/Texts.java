package io.pylon.gateway.model;

/** Text from a definition made safe to quote in a message: control characters replaced, long text cut. */
final class Texts {
    private static final int QUOTED = 80;

    private Texts() {
    }

    static String printable(String text) {
        if (text == null) {
            return "null";
        }
        String cut = text.length() > QUOTED ? text.substring(0, QUOTED) + "...(" + text.length() + " chars)" : text;
        return cut.replaceAll("\\p{Cntrl}", "?");
    }
}
