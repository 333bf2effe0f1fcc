package io.pylon.core.http;

import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Helidon 4.5.0 stops a listener by closing its socket and then its connection executor; a connection its accept loop
 * took just before is refused by that executor, closed unanswered, and logged at ERROR with a stack trace ("Executor
 * rejected handler for new connection"). It happens when a client connects as a pod stops. The client is treated as
 * one whose connect was still queued when the socket closed (it reconnects, through the Service, to a pod that
 * serves), so the record is replaced by one INFO line without a stack trace.
 *
 * <p>Threading: {@link #install} is synchronized (each pod of a JVM calls it while it starts); the filter keeps no
 * state.
 */
final class ListenerCloseRace {
    // held strongly: java.util.logging forgets the filter of a logger that is garbage collected
    private static final Logger LISTENER = Logger.getLogger("io.helidon.webserver.ServerListener");
    private static final System.Logger LOG = System.getLogger(ListenerCloseRace.class.getName());
    static final String HELIDON_MESSAGE = "Executor rejected handler for new connection";

    private ListenerCloseRace() {
    }

    static synchronized void install() {
        LISTENER.setFilter(record -> {
            if (record.getLevel().intValue() >= Level.SEVERE.intValue() && HELIDON_MESSAGE.equals(record.getMessage())) {
                LOG.log(System.Logger.Level.INFO, "A connection that arrived as the listener closed was closed unanswered");
                return false;
            }
            return true;
        });
    }
}
