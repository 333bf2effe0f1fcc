package io.pylon.distribution.cli;

import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/** {@code -o table|wide|json|yaml} and {@code --no-headers}. */
public final class OutputOptions {
    public enum Format { table, wide, json, yaml }

    @Option(scope = ScopeType.INHERIT, names = {"-o", "--output"}, paramLabel = "FORMAT", defaultValue = "table",
            description = "table (default), wide, json or yaml.")
    Format format = Format.table;

    @Option(scope = ScopeType.INHERIT, names = "--no-headers", description = "Tables without their header line (for scripts).")
    boolean noHeaders;

    public Format format() {
        return format;
    }

    public boolean structured() {
        return format == Format.json || format == Format.yaml;
    }
}
