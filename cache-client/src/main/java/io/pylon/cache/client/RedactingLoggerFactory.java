package io.pylon.cache.client;

import org.jspecify.annotations.Nullable;

import com.hazelcast.logging.AbstractLogger;
import com.hazelcast.logging.ILogger;
import com.hazelcast.logging.LogEvent;
import com.hazelcast.logging.LoggerFactorySupport;

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
 * <p>A client that has not reached the grid yet ({@link #quietUntilConnected}) logs none of Hazelcast's lines about
 * its failed attempts (a stack trace each, while the Cache pods start, which is normal): its first one runs the
 * client's own one-line notice instead. A double completion Hazelcast logs as it shuts down is logged at FINE
 * ({@link ShutdownDoubleCompletion}).
 *
 * <p>Threading: {@link #hide}, {@link #quietUntilConnected} and {@link #connected} may be called by any thread (a
 * pod's start-up, Hazelcast's lifecycle events); the secrets and the quiet clients are kept in concurrent maps that
 * Hazelcast's threads read on every log line.
 */
public final class RedactingLoggerFactory extends LoggerFactorySupport {
    private static final Map<String, String> LABELS = new ConcurrentHashMap<>();
    /** Client instance name to the notice its first quieted line runs (removed once run or once connected). */
    private static final Map<String, Runnable> QUIET = new ConcurrentHashMap<>();
    private static final String CLIENT_LOGGERS = "com.hazelcast.client";

    /** Replaces the name's secret by its label in every Hazelcast log line from now on. */
    static void hide(GridClusterName name) {
        LABELS.put(name.secret(), name.label());
    }

    /**
     * Until {@link #connected}, the lines of Hazelcast's client loggers that come from client {@code instance} (they
     * start with its name) are not logged; the first of them runs {@code notice}, once.
     */
    static void quietUntilConnected(String instance, Runnable notice) {
        QUIET.put(instance, notice);
    }

    /** Client {@code instance} reached the grid (or closed): its lines are logged again. */
    static void connected(String instance) {
        QUIET.remove(instance);
    }

    /** Whether a line of logger {@code name} is quieted; runs the notice of its client the first time. */
    static boolean quieted(String name, @Nullable String message) {
        if (QUIET.isEmpty() || message == null || !name.startsWith(CLIENT_LOGGERS)) {
            return false;
        }
        for (Map.Entry<String, Runnable> entry : QUIET.entrySet()) {
            if (message.startsWith(entry.getKey() + " ")) {
                Runnable notice = entry.getValue();
                if (notice != NOTICE_GIVEN && QUIET.replace(entry.getKey(), notice, NOTICE_GIVEN)) {
                    notice.run();
                }
                return true;
            }
        }
        return false;
    }

    private static final Runnable NOTICE_GIVEN = () -> { };

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
            java.util.logging.Level effective = ShutdownDoubleCompletion.matches(message, thrown)
                    ? java.util.logging.Level.FINE : level;
            if (!logger.isLoggable(effective) || quieted(logger.getName(), message)) {
                return;
            }
            LogRecord record = new LogRecord(effective, redact(message));
            record.setLoggerName(logger.getName());
            record.setSourceClassName(logger.getName());
            record.setThrown(redact(thrown));
            logger.log(record);
        }

        @Override
        public void log(LogEvent event) {
            LogRecord record = event.getLogRecord();
            if (!logger.isLoggable(record.getLevel()) || quieted(logger.getName(), record.getMessage())) {
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
