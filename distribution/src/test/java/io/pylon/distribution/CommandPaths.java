package io.pylon.distribution;

import io.pylon.distribution.cli.CliIo;
import picocli.CommandLine;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Every command under {@code pylon}, as the words that name it: [pods], [dump, heap]... (aliases left out). */
public final class CommandPaths {
    private CommandPaths() {
    }

    public static List<List<String>> all() {
        PrintStream nowhere = new PrintStream(new ByteArrayOutputStream());
        CliIo io = new CliIo(new ByteArrayInputStream(new byte[0]), nowhere, nowhere, Map.of(), false);
        List<List<String>> paths = new ArrayList<>();
        collect(PylonCli.commandLine(io, new String[0]), List.of(), paths);
        return paths;
    }

    private static void collect(CommandLine command, List<String> path, List<List<String>> paths) {
        for (Map.Entry<String, CommandLine> sub : command.getSubcommands().entrySet()) {
            if (!sub.getKey().equals(sub.getValue().getCommandName())) {
                continue; // an alias
            }
            List<String> subPath = new ArrayList<>(path);
            subPath.add(sub.getKey());
            paths.add(subPath);
            collect(sub.getValue(), subPath, paths);
        }
    }
}
