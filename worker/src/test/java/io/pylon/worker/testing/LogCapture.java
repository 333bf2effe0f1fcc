package io.pylon.worker.testing;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Every log record of {@code level} or above that the in-process pods write while it is open (the root JUL logger).
 * Thread-safe: records arrive from any request thread into a copy-on-write list.
 */
public final class LogCapture extends Handler implements AutoCloseable {
    private final List<LogRecord> records = new CopyOnWriteArrayList<>();

    private LogCapture(Level level) {
        setLevel(level);
    }

    public static LogCapture open(Level level) {
        LogCapture capture = new LogCapture(level);
        Logger.getLogger("").addHandler(capture);
        return capture;
    }

    @Override
    public void publish(LogRecord record) {
        if (isLoggable(record)) {
            records.add(record);
        }
    }

    /** The captured records as "LEVEL logger: message" lines. */
    public List<String> lines() {
        return records.stream().map(r -> r.getLevel() + " " + r.getLoggerName() + ": " + r.getMessage()).toList();
    }

    public void clear() {
        records.clear();
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
        Logger.getLogger("").removeHandler(this);
    }
}
