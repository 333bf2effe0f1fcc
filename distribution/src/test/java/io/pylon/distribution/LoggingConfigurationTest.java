package io.pylon.distribution;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.logging.Level;
import java.util.logging.LogManager;
import java.util.logging.Logger;

import static org.assertj.core.api.Assertions.assertThat;

/** The logging set-up a pod runs with: Pylon's, Helidon's and Hazelcast's lines all go through the escaping formatter. */
class LoggingConfigurationTest {

    @Test
    void everyLoggersLinesAreEscaped() throws Exception {
        PrintStream console = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        try (InputStream config = PylonCli.class.getResourceAsStream("/logging.properties")) {
            System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
            LogManager.getLogManager().readConfiguration(config); // the console handler takes System.out now
            for (String name : new String[]{"io.pylon.manager.Test", "io.helidon.webserver.Test", "com.hazelcast.Test"}) {
                Logger.getLogger(name).log(Level.WARNING, "from " + name + "\nFORGED line",
                        new IllegalStateException("bad\r\nFORGED cause"));
            }
        } finally {
            System.setOut(console);
            LogManager.getLogManager().readConfiguration();
        }

        String output = captured.toString(StandardCharsets.UTF_8);
        assertThat(output).contains("from io.pylon.manager.Test\\nFORGED line", "from io.helidon.webserver.Test\\nFORGED line",
                "from com.hazelcast.Test\\nFORGED line", "IllegalStateException: bad\\r\\nFORGED cause");
        assertThat(output.split("\n")).noneMatch(line -> line.startsWith("FORGED"));
    }
}
