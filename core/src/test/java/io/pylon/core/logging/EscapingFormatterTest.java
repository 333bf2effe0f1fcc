package io.pylon.core.logging;

import org.junit.jupiter.api.Test;

import java.util.logging.Level;
import java.util.logging.LogRecord;

import static org.assertj.core.api.Assertions.assertThat;

class EscapingFormatterTest {
    private final EscapingFormatter formatter = new EscapingFormatter();

    @Test
    void controlCharactersInTheMessageAreEscaped() {
        String line = formatter.format(record("token for x\r\n2026-01-01T00:00:00.000 INFO audit action=token.issued\u001b[2J\u0085\u2028"));

        assertThat(line).endsWith(System.lineSeparator());
        assertThat(line.substring(0, line.length() - System.lineSeparator().length())).doesNotContain("\n", "\r", "\u001b", "\u0085", "\u2028");
        assertThat(line).contains("token for x\\r\\n2026-01-01T00:00:00.000 INFO audit action=token.issued\\u001b[2J\\u0085\\u2028");
    }

    @Test
    void parametersAreEscapedAfterFormatting() {
        LogRecord record = record("user {0} refused");
        record.setParameters(new Object[]{"bob\nFORGED"});

        assertThat(formatter.format(record)).contains("user bob\\nFORGED refused");
    }

    @Test
    void exceptionMessagesAndCausesAreEscapedAndFramesKept() {
        LogRecord record = record("failed");
        IllegalStateException cause = new IllegalStateException("inner\r\nFORGED cause");
        RuntimeException thrown = new RuntimeException("For input string: \"3\rFORGED\nline\"", cause);
        thrown.addSuppressed(new IllegalArgumentException("sup\npressed"));
        record.setThrown(thrown);

        String out = formatter.format(record);

        assertThat(out.lines()).noneMatch(l -> l.startsWith("FORGED") || l.contains("\r"));
        assertThat(out).contains("java.lang.RuntimeException: For input string: \"3\\rFORGED\\nline\"")
                .contains("Caused by: java.lang.IllegalStateException: inner\\r\\nFORGED cause")
                .contains("\tSuppressed: java.lang.IllegalArgumentException: sup\\npressed")
                .contains("\tat io.pylon.core.logging.EscapingFormatterTest");
        assertThat(out.lines().skip(2)).allMatch(l -> l.startsWith("\t") || l.startsWith("Caused by: "));
    }

    @Test
    void theLoggerNameIsEscapedToo() {
        LogRecord record = record("m");
        record.setLoggerName("a\nb");

        assertThat(formatter.format(record)).contains("a\\nb").hasLineCount(1);
    }

    @Test
    void attackerSizedMessagesAreCut() {
        String line = formatter.format(record("x".repeat(1_000_000)));

        assertThat(line.length()).isLessThan(EscapingFormatter.MAX_FIELD + 200);
        assertThat(line).contains("(" + (1_000_000 - EscapingFormatter.MAX_FIELD) + " more characters)");
    }

    @Test
    void plainTextIsUnchanged() {
        assertThat(EscapingFormatter.escape("Pod worker-0 listening on http://127.0.0.1:8091/platform (ünïcode)"))
                .isEqualTo("Pod worker-0 listening on http://127.0.0.1:8091/platform (ünïcode)");
    }

    private static LogRecord record(String message) {
        LogRecord record = new LogRecord(Level.WARNING, message);
        record.setLoggerName("io.pylon.test");
        return record;
    }
}
