package io.pylon.distribution.cli;

import java.io.PrintStream;
import java.util.Locale;

/**
 * A one-line progress bar on a terminal, redrawn in place at most every 100 ms: bar and percentage when the size is
 * known, bytes, rate and elapsed time. Used by one thread (the download's).
 */
public final class ProgressBar {
    private static final int WIDTH = 30;

    private final PrintStream out;
    private final long total;
    private final long started = System.nanoTime();
    private long lastDrawn;

    /** {@code total} is the expected size in bytes, or -1 when unknown. */
    public ProgressBar(PrintStream out, long total) {
        this.out = out;
        this.total = total;
    }

    public void update(long done) {
        long now = System.nanoTime();
        if (now - lastDrawn < 100_000_000L) {
            return;
        }
        lastDrawn = now;
        draw(done);
    }

    public void finish(long done) {
        draw(done);
        out.println();
    }

    private void draw(long done) {
        long elapsed = (System.nanoTime() - started) / 1_000_000;
        double rate = elapsed == 0 ? 0 : done * 1000.0 / elapsed;
        StringBuilder line = new StringBuilder("\r");
        if (total > 0) {
            int filled = (int) Math.min(WIDTH, done * WIDTH / total);
            line.append('[').append("#".repeat(filled)).append("-".repeat(WIDTH - filled)).append("] ")
                    .append(String.format(Locale.ROOT, "%3d%% ", Math.min(100, done * 100 / total)))
                    .append(Units.bytes(done)).append(" / ").append(Units.bytes(total));
        } else {
            line.append(Units.bytes(done));
        }
        line.append("  ").append(Units.bytes((long) rate)).append("/s  ").append(Units.clock(elapsed)).append("\u001b[K");
        out.print(line);
        out.flush();
    }
}
