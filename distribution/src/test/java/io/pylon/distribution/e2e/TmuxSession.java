package io.pylon.distribution.e2e;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * A real terminal for a test: a tmux server of its own ({@code -L}, so nothing of the operator's tmux is touched)
 * running bash in a window of a fixed size; keys go in with send-keys, the screen comes out with capture-pane.
 */
final class TmuxSession implements AutoCloseable {
    private final String socket = "pylon-cli-test-" + ProcessHandle.current().pid() + "-" + System.nanoTime();

    TmuxSession(Path workDir, int width, int height) {
        tmux("new-session", "-d", "-s", "t", "-x", String.valueOf(width), "-y", String.valueOf(height), "-c", workDir.toString(),
                "env -i PATH=/usr/bin:/bin HOME=" + workDir + " TERM=xterm-256color PS1='$ ' HISTFILE=/dev/null bash --norc --noprofile");
    }

    /** Types {@code text} literally (no key names interpreted). */
    void type(String text) {
        tmux("send-keys", "-t", "t", "-l", text);
    }

    /** Presses a key by tmux's name: Enter, C-c... */
    void press(String key) {
        tmux("send-keys", "-t", "t", key);
    }

    void run(String commandLine) {
        type(commandLine);
        press("Enter");
    }

    String screen() {
        return tmux("capture-pane", "-p", "-t", "t");
    }

    /** The screen with lines the terminal wrapped joined again: a line longer than the window was wrapped. */
    String joinedScreen() {
        return tmux("capture-pane", "-p", "-J", "-t", "t");
    }

    /** The screen and what scrolled off it since the last {@link #clear}. */
    String history() {
        return tmux("capture-pane", "-p", "-J", "-S", "-5000", "-t", "t");
    }

    /** Clears the screen and the scrollback, and waits until only the prompt is left. */
    void clear() throws InterruptedException {
        run("clear");
        waitFor("a clear screen", s -> s.strip().equals("$"), java.time.Duration.ofSeconds(20));
        tmux("clear-history", "-t", "t");
    }

    /** Gives the window another size, as an operator resizing the terminal does. */
    void resize(int width, int height) {
        tmux("resize-window", "-t", "t", "-x", String.valueOf(width), "-y", String.valueOf(height));
    }

    /** Waits until the screen satisfies {@code condition}; returns that screen, or fails showing the last one. */
    String waitFor(String what, Predicate<String> condition, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        String screen = screen();
        while (!condition.test(screen)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the terminal never showed " + what + "; it shows:\n" + screen);
            }
            Thread.sleep(100);
            screen = screen();
        }
        return screen;
    }

    String waitFor(String text, Duration timeout) throws InterruptedException {
        return waitFor("'" + text + "'", s -> s.contains(text), timeout);
    }

    /** Waits for the {@code EXIT=<code>} that a command line ending in {@code ; echo EXIT=$?} prints. */
    String waitForExit(Duration timeout) throws InterruptedException {
        return waitFor("an exit code", TmuxSession::exited, timeout);
    }

    static boolean exited(String screen) {
        return java.util.regex.Pattern.compile("EXIT=\\d").matcher(screen).find();
    }

    @Override
    public void close() {
        tmux("kill-server");
    }

    private String tmux(String... args) {
        List<String> command = new ArrayList<>(List.of("tmux", "-L", socket));
        command.addAll(List.of(args));
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            int exit = process.waitFor();
            if (exit != 0 && !args[0].equals("kill-server")) {
                throw new IllegalStateException("tmux " + args[0] + " failed (" + exit + "): " + output);
            }
            return output;
        } catch (IOException e) {
            throw new IllegalStateException("tmux could not be run (apt-get install tmux)", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
