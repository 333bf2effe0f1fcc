package io.pylon.distribution.cli;

import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

/**
 * {@code pylon completion bash|zsh}: picocli's completion script for every command and option. zsh runs the same
 * script through its bash compatibility ({@code bashcompinit}), which the script enables itself.
 */
@Command(name = "completion", description = "Prints a shell completion script: source <(pylon completion bash).")
public final class CompletionCommand implements Callable<Integer> {
    private final CliIo io;

    @Parameters(paramLabel = "SHELL", description = "bash or zsh.")
    String shell;

    @Spec
    CommandLine.Model.CommandSpec spec;

    public CompletionCommand(CliIo io) {
        this.io = io;
    }

    @Override
    public Integer call() {
        if (!shell.equals("bash") && !shell.equals("zsh")) {
            throw CliException.usage("Completion exists for bash and zsh, not '" + Text.printable(shell) + "'.");
        }
        CommandLine root = spec.root().commandLine();
        String script = AutoComplete.bash(root.getCommandName(), root);
        if (shell.equals("zsh")) {
            script = "autoload -U +X compinit && compinit\nautoload -U +X bashcompinit && bashcompinit\n" + script;
        }
        io.out().print(script);
        return 0;
    }
}
