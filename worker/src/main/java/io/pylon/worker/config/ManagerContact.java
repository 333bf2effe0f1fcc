package io.pylon.worker.config;

import java.lang.System.Logger.Level;
import java.net.URI;

/**
 * What a Worker says about reaching its Manager, shared by the followers of one Worker (the bundle's and the key
 * set's) and its usage reporter. A Worker started before its Manager is normal (both start together; the Manager takes longer): while a
 * Manager that never answered still does not, the Worker says once, at INFO, that it waits for it, and once that it
 * is connected when the first answer comes. Only a Manager that answered and then cannot be reached is a WARNING,
 * once, and its return an INFO line. The polls that fail in between are not logged one by one: each follower counts
 * them and shows the last reason in diagnostics.
 *
 * <p>Threading: the followers' polling threads call it; its state changes under this object's monitor.
 */
public final class ManagerContact {
    private static final System.Logger LOG = System.getLogger(ManagerContact.class.getName());

    private enum State { NOT_YET_ASKED, WAITING, CONNECTED, LOST }

    private final URI manager;
    private State state = State.NOT_YET_ASKED;

    public ManagerContact(URI manager) {
        this.manager = manager;
    }

    /**
     * Whether an answer is a Manager replica's "I am stopping" (503 {@code stopping}): a replica going away, as in
     * every rollout, not a failure; the next poll, after the back-off, reaches another.
     */
    public static boolean replicaStopping(int status, String body) {
        return status == 503 && body.contains("\"error\":\"stopping\"");
    }

    /** The Manager answered a poll (whatever the answer said). */
    public synchronized void answered() {
        switch (state) {
            case NOT_YET_ASKED, WAITING -> LOG.log(Level.INFO, "Connected to the Manager at " + manager);
            case LOST -> LOG.log(Level.INFO, "The Manager at " + manager + " answers again");
            case CONNECTED -> {
                return;
            }
        }
        state = State.CONNECTED;
    }

    /** A poll could not reach the Manager (refused, timed out, cut off); {@code reason} says how. */
    public synchronized void unreachable(String reason) {
        switch (state) {
            case NOT_YET_ASKED -> {
                LOG.log(Level.INFO, "Waiting for the Manager at " + manager + " (" + reason + "); retrying every "
                        + "0.5 to 10 s");
                state = State.WAITING;
            }
            case CONNECTED -> {
                LOG.log(Level.WARNING, "The Manager at " + manager + " cannot be reached (" + reason + "); the "
                        + "configuration and keys in force stay, retrying every 0.5 to 10 s");
                state = State.LOST;
            }
            case WAITING, LOST -> {
                // said once already; the followers' diagnostics show the latest reason
            }
        }
    }
}
