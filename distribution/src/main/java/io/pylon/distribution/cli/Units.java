package io.pylon.distribution.cli;

import org.jspecify.annotations.Nullable;

import java.util.Locale;

/** Human-readable figures for tables: sizes in binary units, ages like kubectl's, percentages. */
public final class Units {
    private Units() {
    }

    public static String bytes(@Nullable Long bytes) {
        if (bytes == null || bytes < 0) {
            return "-";
        }
        if (bytes < 1024) {
            return bytes + "B";
        }
        String[] units = {"Ki", "Mi", "Gi", "Ti"};
        double value = bytes;
        int unit = -1;
        while (value >= 1024 && unit < units.length - 1) {
            value /= 1024;
            unit++;
        }
        return String.format(Locale.ROOT, value >= 100 ? "%.0f%s" : "%.1f%s", value, units[unit]);
    }

    /** {@code 45s}, {@code 12m}, {@code 3h12m}, {@code 4d5h}. */
    public static String age(@Nullable Long millis) {
        if (millis == null) {
            return "-";
        }
        long s = millis / 1000;
        if (s < 60) {
            return s + "s";
        }
        if (s < 3600) {
            return s / 60 + "m";
        }
        if (s < 86400) {
            return s / 3600 + "h" + (s % 3600) / 60 + "m";
        }
        return s / 86400 + "d" + (s % 86400) / 3600 + "h";
    }

    public static String percent(@Nullable Double fraction) {
        if (fraction == null) {
            return "-";
        }
        // one decimal below 10 %: a 20 MiB heap of a 6 GiB maximum is 0.3 %, not 0 %
        return String.format(Locale.ROOT, fraction < 0.1 ? "%.1f%%" : "%.0f%%", fraction * 100);
    }

    /** {@code 00:07} or {@code 1:02:07}. */
    public static String clock(long millis) {
        long s = millis / 1000;
        return s >= 3600 ? String.format(Locale.ROOT, "%d:%02d:%02d", s / 3600, (s % 3600) / 60, s % 60)
                : String.format(Locale.ROOT, "%02d:%02d", s / 60, s % 60);
    }
}
