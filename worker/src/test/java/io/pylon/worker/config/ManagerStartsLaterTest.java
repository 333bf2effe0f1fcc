package io.pylon.worker.config;

import io.pylon.core.server.Pod;
import io.pylon.worker.testing.LogCapture;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A real Worker started before its Manager, and a Manager started later on the address it follows: the Worker says
 * once that it waits and once that it is connected, with no warning; a Manager that was reached and goes away is one
 * warning, its return one line.
 */
class ManagerStartsLaterTest {
    private static final String ADDRESS = "127.0.42.11";
    private static final String CONTACT = ManagerContact.class.getName();

    @Test
    void aWorkerWaitsQuietlyForItsManagerAndWarnsOnlyWhenAReachedManagerGoesAway() throws Exception {
        int port = freePort();
        String url = "http://" + ADDRESS + ":" + port;
        Map<String, String> manager = Map.of("pylon.server.bind", ADDRESS, "pylon.server.port", Integer.toString(port));
        try (LogCapture log = LogCapture.open(Level.INFO)) {
            Pod worker = ControlPlane.worker("gw-early", url, Map.of());
            ControlPlane cp = null;
            try {
                ControlPlane.await("the waiting line", () -> count(log, "INFO " + CONTACT + ": Waiting for the Manager at " + url) == 1);
                // the followers keep polling (backing off from 0.5 s) while nothing listens there
                Thread.sleep(3_000);
                assertThat(WorkersFollowManagerTest.ready(worker)).isFalse();

                cp = new ControlPlane(manager);
                ControlPlane.await("the Worker configured by the Manager", () -> WorkersFollowManagerTest.ready(worker));
                ControlPlane.await("the connected line", () -> count(log, "INFO " + CONTACT + ": Connected to the Manager at " + url) == 1);
                List<String> untilConnected = followerLines(log);
                assertThat(untilConnected).as(String.join("\n", untilConnected)).containsExactly(
                        startsWith(untilConnected, "INFO " + CONTACT + ": Waiting for the Manager at " + url + " ("),
                        "INFO " + CONTACT + ": Connected to the Manager at " + url);

                cp.close();
                cp = null;
                ControlPlane.await("the warning", () -> count(log, "WARNING " + CONTACT + ": The Manager at " + url + " cannot be reached") == 1);
                Thread.sleep(3_000);
                assertThat(count(log, "WARNING " + CONTACT)).as(String.join("\n", followerLines(log))).isEqualTo(1);

                cp = new ControlPlane(manager);
                ControlPlane.await("the return line", () -> count(log, "INFO " + CONTACT + ": The Manager at " + url + " answers again") == 1);
                assertThat(count(log, "Waiting for the Manager")).isEqualTo(1);
                assertThat(count(log, "Connected to the Manager")).isEqualTo(1);
            } finally {
                worker.stop();
                if (cp != null) {
                    cp.close();
                }
            }
        }
    }

    // the lines of the Worker's Manager contact and followers
    private static List<String> followerLines(LogCapture log) {
        return log.lines().stream().filter(l -> l.contains(CONTACT) || l.contains(ManagerFollower.class.getName())
                || l.contains("io.pylon.worker.keys.KeyFollower")).toList();
    }

    private static String startsWith(List<String> lines, String prefix) {
        return lines.stream().filter(l -> l.startsWith(prefix)).findFirst().orElse(prefix + "...");
    }

    private static long count(LogCapture log, String fragment) {
        return log.lines().stream().filter(l -> l.contains(fragment)).count();
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(ADDRESS))) {
            return socket.getLocalPort();
        }
    }
}
