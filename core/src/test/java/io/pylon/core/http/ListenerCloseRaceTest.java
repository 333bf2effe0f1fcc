package io.pylon.core.http;

import io.pylon.core.server.Pod;
import io.pylon.core.testing.FakeModule;
import io.pylon.core.testing.TestPods;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.RejectedExecutionException;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;
import java.util.logging.StreamHandler;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What Helidon 4.5.0's listener logs when a connection it accepted as it closed is refused by its stopped executor
 * (seen on a Worker of {@code pylon up} at Ctrl-C): one INFO line of the pod's, not an ERROR with a stack trace. The
 * race itself is Helidon's and rare; the record is sent here as Helidon sends it.
 */
class ListenerCloseRaceTest {
    @Test
    void helidonsRejectedConnectionAtCloseIsOneInfoLine() {
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        StreamHandler handler = new StreamHandler(captured, new SimpleFormatter());
        handler.setLevel(Level.ALL);
        Logger root = Logger.getLogger("");
        root.addHandler(handler);
        Pod pod = TestPods.start(new FakeModule("worker"), "close-race", Map.of());
        try {
            System.getLogger("io.helidon.webserver.ServerListener").log(System.Logger.Level.ERROR,
                    ListenerCloseRace.HELIDON_MESSAGE, new RejectedExecutionException());
            System.getLogger("io.helidon.webserver.ServerListener").log(System.Logger.Level.ERROR,
                    "Got a throwable while listening, this server socket is terminating now", new IllegalStateException());
        } finally {
            pod.stop();
            handler.flush();
            root.removeHandler(handler);
        }
        String log = captured.toString(StandardCharsets.UTF_8);
        assertThat(log).contains("A connection that arrived as the listener closed was closed unanswered")
                .doesNotContain(ListenerCloseRace.HELIDON_MESSAGE).doesNotContain("RejectedExecutionException");
        assertThat(log).as("other listener errors pass").contains("this server socket is terminating now");
    }
}
