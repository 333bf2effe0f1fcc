package io.pylon.distribution.cli;

import picocli.CommandLine.Command;

/** {@code pylon dump threads|heap <pod>}. */
@Command(name = "dump", description = "Takes a thread dump or a heap dump of one pod.",
        subcommands = {ThreadDumpCommand.class, HeapDumpCommand.class})
public final class DumpCommand {
}
