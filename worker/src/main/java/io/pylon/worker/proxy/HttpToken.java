package io.pylon.worker.proxy;

/**
 * HTTP's token (RFC 9110, 5.6.2): what a method and a field name are made of. The gateway checks a client's method
 * and an upstream's field names with it. Stateless.
 */
final class HttpToken {
    private static final boolean[] TOKEN = new boolean[128];

    static {
        for (char c = '0'; c <= '9'; c++) {
            TOKEN[c] = true;
        }
        for (char c = 'a'; c <= 'z'; c++) {
            TOKEN[c] = true;
            TOKEN[c - 'a' + 'A'] = true;
        }
        for (char c : "!#$%&'*+-.^_`|~".toCharArray()) {
            TOKEN[c] = true;
        }
    }

    private HttpToken() {
    }

    /** Whether {@code text} is a token: one or more token characters. */
    static boolean is(String text) {
        if (text.isEmpty()) {
            return false;
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c >= 128 || !TOKEN[c]) {
                return false;
            }
        }
        return true;
    }
}
