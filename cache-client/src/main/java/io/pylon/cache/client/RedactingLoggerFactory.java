package io.pylon.cache.client;

import com.hazelcast.logging.AbstractLogger;
import com.hazelcast.logging.ILogger;
import com.hazelcast.logging.LogEvent;
import com.hazelcast.logging.LoggerFactorySupport;
import org.jspecify.annotations.Nullable;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Hazelcast's logger factory (named by the {@code hazelcast.logging.class} system property, instantiated by
 * Hazelcast): JUL, like Hazelcast's own {@code StandardLoggerFactory}, with every secret cluster name in a message
 * or an exception message replaced by its label. Hazelcast writes the cluster name into the prefix of every member
 * line ({@code [host]:5701 [cluster name] [5.5.0] ...}), into its start-up banner and into client lines.
 *
 * <p>Threading: {@link #hide} may be called by any thread (a pod's start-up); the secrets are kept in a concurrent
 * map that Hazelcast's threads read on every log line.
 */
public final class RedactingLoggerFactory extends LoggerFactorySupport {
    private static final Map<String, String> LABELS = new ConcurrentHashMap<>();

    /** Replaces the name's secret by its label in every Hazelcast log line from now on. */
    static void hide(GridClusterName name) {
        LABELS.put(name.secret(), name.label());
    }

    /** The text with every known secret cluster name replaced by its label. */
    static @Nullable String redact(@Nullable String text) {
        if (text == null || LABELS.isEmpty()) {
            return text;
        }
        String out = text;
        for (Map.Entry<String, String> entry : LABELS.entrySet()) {
            if (out.contains(entry.getKey())) {
                out = out.replace(entry.getKey(), entry.getValue());
            }
        }
        return out;
    }

    static @Nullable Throwable redact(@Nullable Throwable thrown) {
        if (thrown == null || !mentionsSecret(thrown)) {
            return thrown;
        }
        return RedactedException.of(thrown);
    }

    private static boolean mentionsSecret(Throwable thrown) {
        for (Throwable t = thrown; t != null; t = t.getCause() == t ? null : t.getCause()) {
            String message = t.getMessage();
            if (message != null && !message.equals(redact(message))) {
                return true;
            }
        }
        return false;
    }

    @Override
    protected ILogger createLogger(String name) {
        return new RedactingLogger(Logger.getLogger(name));
    }

    private static final class RedactingLogger extends AbstractLogger {
        private final Logger logger;

        RedactingLogger(Logger logger) {
            this.logger = logger;
        }

        @Override
        public void log(java.util.logging.Level level, String message) {
            log(level, message, null);
        }

        @Override
        public void log(java.util.logging.Level level, String message, @Nullable Throwable thrown) {
            if (!logger.isLoggable(level)) {
                return;
            }
            LogRecord record = new LogRecord(level, redact(message));
            record.setLoggerName(logger.getName());
            record.setSourceClassName(logger.getName());
            record.setThrown(redact(thrown));
            logger.log(record);
        }

        @Override
        public void log(LogEvent event) {
            LogRecord record = event.getLogRecord();
            if (!logger.isLoggable(record.getLevel())) {
                return;
            }
            record.setMessage(redact(record.getMessage()));
            record.setThrown(redact(record.getThrown()));
            logger.log(record);
        }

        @Override
        public java.util.logging.Level getLevel() {
            return logger.getLevel();
        }

        @Override
        public boolean isLoggable(java.util.logging.Level level) {
            return logger.isLoggable(level);
        }
    }

    /** An exception whose message (and its causes' messages) named a secret: same types and stack, redacted text. */
    static final class RedactedException extends Exception {
        private RedactedException(String message, StackTraceElement[] stack, @Nullable Throwable cause) {
            super(message, cause, false, true);
            setStackTrace(stack);
        }

        static RedactedException of(Throwable original) {
            Throwable cause = original.getCause() == null || original.getCause() == original
                    ? null : redactedCopy(original.getCause());
            return new RedactedException(original.getClass().getName() + ": " + redact(original.getMessage()),
                    original.getStackTrace(), cause);
        }

        private static Throwable redactedCopy(Throwable t) {
            return mentionsSecret(t) ? of(t) : t;
        }
    }
}
