package io.pylon.core.http;

import io.helidon.http.HeaderNames;
import io.helidon.http.Headers;

/**
 * Whether a message says {@code Connection: close} (a token of any of its Connection headers, in any case). Helidon's
 * {@code Headers.containsToken} builds a stream and lists even when the header is absent, and this runs several times
 * per request, on every pod; a response nearly always carries {@code Connection: keep-alive}.
 */
public final class ConnectionClose {
    private static final String CLOSE = "close";

    private ConnectionClose() {
    }

    public static boolean in(Headers headers) {
        if (!headers.contains(HeaderNames.CONNECTION)) {
            return false;
        }
        for (String value : headers.get(HeaderNames.CONNECTION).allValues()) {
            if (hasCloseToken(value)) {
                return true;
            }
        }
        return false;
    }

    static boolean hasCloseToken(String value) {
        int start = 0;
        while (start <= value.length()) {
            int comma = value.indexOf(',', start);
            int end = comma < 0 ? value.length() : comma;
            int from = start;
            int to = end;
            while (from < to && isSpace(value.charAt(from))) {
                from++;
            }
            while (to > from && isSpace(value.charAt(to - 1))) {
                to--;
            }
            if (to - from == CLOSE.length() && value.regionMatches(true, from, CLOSE, 0, CLOSE.length())) {
                return true;
            }
            start = end + 1;
        }
        return false;
    }

    private static boolean isSpace(char c) {
        return c == ' ' || c == '\t';
    }
}
