package io.pylon.manager;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

/**
 * Captures what a pod writes while it runs: every log record (JUL root, where System.Logger, Helidon and Flyway
 * write) formatted with its stack trace, and standard output and error (still passed through).
 */
public final class ConsoleCapture implements AutoCloseable {
    private final ByteArrayOutputStream captured = new ByteArrayOutputStream();
    private final PrintStream originalOut = System.out;
    private final PrintStream originalErr = System.err;
    private final Handler handler;

    public ConsoleCapture() {
        SimpleFormatter formatter = new SimpleFormatter();
        handler = new Handler() {
            @Override
            public void publish(LogRecord record) {
                synchronized (captured) {
                    captured.writeBytes(formatter.format(record).getBytes(StandardCharsets.UTF_8));
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        handler.setLevel(java.util.logging.Level.ALL);
        Logger.getLogger("").addHandler(handler);
        System.setOut(new PrintStream(new Tee(originalOut), true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(new Tee(originalErr), true, StandardCharsets.UTF_8));
    }

    public String text() {
        synchronized (captured) {
            return captured.toString(StandardCharsets.UTF_8);
        }
    }

    @Override
    public void close() {
        Logger.getLogger("").removeHandler(handler);
        System.setOut(originalOut);
        System.setErr(originalErr);
    }

    private final class Tee extends OutputStream {
        private final OutputStream through;

        Tee(OutputStream through) {
            this.through = through;
        }

        @Override
        public void write(int b) {
            synchronized (captured) {
                captured.write(b);
            }
            try {
                through.write(b);
            } catch (java.io.IOException ignored) {
                // the console is gone; the capture still has it
            }
        }

        @Override
        public void write(byte[] b, int off, int len) {
            synchronized (captured) {
                captured.write(b, off, len);
            }
            try {
                through.write(b, off, len);
            } catch (java.io.IOException ignored) {
                // the console is gone; the capture still has it
            }
        }
    }
}
