package io.pylon.distribution.cli;

import org.jspecify.annotations.Nullable;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * A plain-text table the way kubectl prints one: upper-case headers, columns padded and three spaces apart. Cells
 * are made printable; a cell may carry a colour, shown only when colour is on.
 */
public final class Table {
    /** ANSI colours for status cells. */
    public enum Colour {
        NONE(""), GREEN("\u001b[32m"), RED("\u001b[31m"), YELLOW("\u001b[33m");

        final String code;

        Colour(String code) {
            this.code = code;
        }
    }

    public record Cell(String text, Colour colour) {
        public static Cell of(@Nullable Object value) {
            return new Cell(value == null ? "-" : Text.printable(String.valueOf(value)), Colour.NONE);
        }
    }

    private final List<String> headers;
    private final List<List<Cell>> rows = new ArrayList<>();

    public Table(List<String> headers) {
        this.headers = headers;
    }

    public Table add(List<Cell> row) {
        rows.add(row);
        return this;
    }

    public Table addValues(@Nullable Object... values) {
        List<Cell> row = new ArrayList<>();
        for (Object value : values) {
            row.add(value instanceof Cell cell ? cell : Cell.of(value));
        }
        return add(row);
    }

    public void print(PrintStream out, boolean headerLine, boolean colour) {
        for (String line : lines(headerLine, colour)) {
            out.println(line);
        }
    }

    public List<String> lines(boolean headerLine, boolean colour) {
        return lines(headerLine, colour, 3);
    }

    /** The lines with {@code gap} spaces between columns (a full screen such as top's uses 2 to fit 80 columns). */
    public List<String> lines(boolean headerLine, boolean colour, int gap) {
        int[] widths = new int[headers.size()];
        for (int i = 0; i < widths.length; i++) {
            widths[i] = headers.get(i).length();
            for (List<Cell> row : rows) {
                widths[i] = Math.max(widths[i], row.get(i).text().length());
            }
        }
        List<String> lines = new ArrayList<>();
        if (headerLine) {
            lines.add(line(headers.stream().map(Cell::of).toList(), widths, false, gap));
        }
        for (List<Cell> row : rows) {
            lines.add(line(row, widths, colour, gap));
        }
        return lines;
    }

    private static String line(List<Cell> cells, int[] widths, boolean colour, int gap) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < cells.size(); i++) {
            Cell cell = cells.get(i);
            boolean last = i == cells.size() - 1;
            String padded = last ? cell.text() : cell.text() + " ".repeat(widths[i] - cell.text().length() + gap);
            if (colour && cell.colour() != Colour.NONE) {
                out.append(cell.colour().code).append(cell.text()).append("\u001b[0m")
                        .append(padded.substring(cell.text().length()));
            } else {
                out.append(padded);
            }
        }
        return out.toString().stripTrailing();
    }
}
