package io.pylon.cache.client;

import com.hazelcast.logging.ILogger;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;
import java.util.logging.StreamHandler;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The WARNING Hazelcast 5.5 logs when its shutdown completes an invocation a second time: below the grid's log level,
 * but only when it comes from a shutdown. The race itself is Hazelcast's; the record is sent here as Hazelcast sends
 * it, with the stack its shutdown has.
 */
class ShutdownDoubleCompletionTest {
    private static final String LOGGER = "com.hazelcast.spi.impl.operationservice.impl.Invocation";
    private static final String LINE = "[127.0.44.3]:5701 [pylon-local-0123456789ab] [5.5.0] "
            + ShutdownDoubleCompletion.MESSAGE + ". Request: Invocation{op=PublishCompletedMigrationsOperation}";

    @Test
    void aDoubleCompletionDuringShutdownIsBelowTheGridsLevelAndOneOutsideItIsNot() {
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        StreamHandler handler = new StreamHandler(captured, new SimpleFormatter());
        handler.setLevel(Level.ALL);
        Logger hazelcast = Logger.getLogger("com.hazelcast");
        Level before = hazelcast.getLevel();
        hazelcast.setLevel(Level.WARNING);
        hazelcast.addHandler(handler);
        try {
            ILogger logger = new RedactingLoggerFactory().getLogger(LOGGER);
            logger.warning(LINE, raisedIn("com.hazelcast.spi.impl.operationservice.impl.InvocationRegistry", "shutdown"));
            handler.flush();
            assertThat(captured.toString(StandardCharsets.UTF_8)).isEmpty();

            logger.warning(LINE, raisedIn("com.hazelcast.spi.impl.operationservice.impl.InboundResponseHandler",
                    "accept"));
            handler.flush();
            assertThat(captured.toString(StandardCharsets.UTF_8)).contains("WARNING").contains(ShutdownDoubleCompletion.MESSAGE);
        } finally {
            hazelcast.removeHandler(handler);
            hazelcast.setLevel(before);
        }
    }

    private static Exception raisedIn(String className, String method) {
        Exception e = new Exception(ShutdownDoubleCompletion.MESSAGE);
        e.setStackTrace(new StackTraceElement[]{
                new StackTraceElement("com.hazelcast.spi.impl.AbstractInvocationFuture", "warnIfSuspiciousDoubleCompletion",
                        "AbstractInvocationFuture.java", 1256),
                new StackTraceElement(className, method, "Source.java", 229)});
        return e;
    }
}
