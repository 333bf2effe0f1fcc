package io.pylon.core.http;

import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The reason of the HTTP/1 parser's last refusal on this thread, which Helidon 4.5.0 does not hand to direct
 * handlers (they get the status and, unless the message is "safe", nothing else): without it an oversized header
 * block cannot be told from a malformed one, and would get 400 instead of 431.
 *
 * <p>Helidon logs every refused request at DEBUG before calling the direct handler on the same connection thread
 * (with {@code errorHandling.logAllMessages}); a filter on that logger keeps the message in a thread-local and drops
 * the record, so nothing is printed. Connection threads are virtual threads, one per connection, so a value left
 * behind dies with its connection.
 *
 * <p>Threading: {@link #install} is synchronized (each pod of a JVM calls it while it starts); the message is kept per
 * connection thread in a thread-local, so nothing is shared between connections.
 */
final class ParserFailures {
    // held strongly: java.util.logging forgets the level and filter of a logger that is garbage collected
    private static final Logger HTTP1 = Logger.getLogger("io.helidon.webserver.http1.Http1Connection");
    private static final ThreadLocal<String> LAST = new ThreadLocal<>();

    private ParserFailures() {
    }

    static synchronized void install() {
        HTTP1.setLevel(Level.FINE);
        HTTP1.setFilter(record -> {
            if (record.getLevel().intValue() >= Level.INFO.intValue()) {
                return true;
            }
            if (record.getMessage() != null) {
                LAST.set(record.getMessage());
            }
            return false;
        });
    }

    /** The last refusal's message on this thread, once; null when there is none. */
    static String take() {
        String message = LAST.get();
        LAST.remove();
        return message;
    }
}
