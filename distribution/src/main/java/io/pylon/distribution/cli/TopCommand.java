package io.pylon.distribution.cli;

import org.jline.terminal.Attributes;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;
import org.jline.utils.InfoCmp.Capability;
import org.jline.utils.NonBlockingReader;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.time.Duration;
import java.time.LocalTime;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * {@code pylon top [module]}: a live table of every pod, refreshed every {@code --interval}, re-sorted by a key press,
 * on the terminal's alternate screen in raw mode (JLine); q or Ctrl-C restores the terminal and exits. Without a
 * terminal it prints one frame and exits, so a script can still use it.
 *
 * <p>Threading: a daemon platform thread ({@link CallThreads}) fetches snapshots and publishes each in the volatile fields {@code pods}/{@code
 * updated}/{@code problem}; the command's thread reads keys and draws. Only the drawing thread writes to the terminal.
 */
@Command(name = "top", description = "Live, refreshing table of every pod (heap, CPU, threads, connections, flags).")
public final class TopCommand implements Callable<Integer> {
    private final CliIo io;

    @Parameters(arity = "0..1", paramLabel = "MODULE", description = "worker or cache (default: both).")
    @Nullable String module;

    @Option(names = "--interval", paramLabel = "DURATION", defaultValue = "2s", description = "Refresh interval (default 2s).")
    String interval;

    @Option(names = "--sort", paramLabel = "KEY", defaultValue = "name", description = "Initial order: name, heap, cpu, threads, blocked, connections or pending.")
    String sortName;

    @Mixin
    ContextOptions contextOptions;

    private volatile List<PodSnapshot> pods = List.of();
    private volatile @Nullable LocalTime updated;
    private volatile @Nullable String problem;
    private final AtomicBoolean dirty = new AtomicBoolean(true);
    private final AtomicBoolean quit = new AtomicBoolean();

    public TopCommand(CliIo io) {
        this.io = io;
    }

    @Override
    public Integer call() throws IOException, InterruptedException {
        Duration every = DurationOption.parse(interval, "--interval", Duration.ofMillis(500));
        TopSort sort = initialSort();
        List<String> modules = ModuleNames.diagnosable(module);
        Session session = Session.open(io, contextOptions);
        String environment = session.environment();
        Fleet fleet = new Fleet(session.manager(), environment);
        if (!io.terminal()) {
            List<PodSnapshot> once = fleet.snapshot(modules);
            TopScreen.render(environment, once, sort, LocalTime.now(), null, 0, Integer.MAX_VALUE, false)
                    .forEach(io.out()::println);
            return once.stream().anyMatch(PodSnapshot::failed) ? CliException.FAILED : CliException.OK;
        }
        Thread fetcher = CallThreads.factory("top-fetch").newThread(() -> fetchLoop(fleet, modules, every));
        fetcher.start();
        try (Terminal terminal = TerminalBuilder.builder().system(true).jna(false).jansi(false).jni(false).ffm(false)
                .exec(true).nativeSignals(true).build()) {
            terminal.handle(Terminal.Signal.INT, signal -> quit.set(true));
            terminal.handle(Terminal.Signal.WINCH, signal -> dirty.set(true));
            Attributes saved = terminal.enterRawMode();
            terminal.puts(Capability.enter_ca_mode);
            terminal.puts(Capability.cursor_invisible);
            try {
                sort = loop(terminal, environment, sort);
            } finally {
                terminal.puts(Capability.cursor_visible);
                terminal.puts(Capability.exit_ca_mode);
                terminal.setAttributes(saved);
                terminal.flush();
            }
        } finally {
            fetcher.interrupt();
        }
        return 0;
    }

    private TopSort loop(Terminal terminal, String environment, TopSort sort) throws IOException {
        NonBlockingReader keys = terminal.reader();
        TopSort current = sort;
        while (!quit.get()) {
            if (dirty.getAndSet(false)) {
                draw(terminal, environment, current);
            }
            int key = keys.read(100);
            if (key == 'q' || key == 'Q' || key == 3 || key == NonBlockingReader.EOF) {
                break;
            }
            TopSort chosen = key > 0 ? TopSort.forKey(key) : null;
            if (chosen != null) {
                current = chosen;
                dirty.set(true);
            }
        }
        return current;
    }

    private void draw(Terminal terminal, String environment, TopSort sort) {
        int width = terminal.getWidth() > 0 ? terminal.getWidth() : 120;
        int height = terminal.getHeight() > 0 ? terminal.getHeight() : 40;
        terminal.puts(Capability.cursor_home);
        for (String line : TopScreen.render(environment, pods, sort, updated, problem, width, height - 1, io.colour())) {
            terminal.writer().print(line);
            terminal.puts(Capability.clr_eol);
            terminal.writer().print("\r\n");
        }
        terminal.puts(Capability.clr_eos);
        terminal.flush();
    }

    private void fetchLoop(Fleet fleet, List<String> modules, Duration every) {
        while (!Thread.currentThread().isInterrupted()) {
            try {
                pods = fleet.snapshot(modules);
                updated = LocalTime.now();
                problem = null;
            } catch (CliException e) {
                // shown on screen; the next round tries again (an expired session will not recover: say so)
                problem = e.getMessage();
            }
            dirty.set(true);
            try {
                Thread.sleep(every);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private TopSort initialSort() {
        for (TopSort sort : TopSort.values()) {
            if (sort.label.equals(sortName)) {
                return sort;
            }
        }
        throw CliException.usage("--sort expects name, heap, cpu, threads, blocked, connections or pending.");
    }
}
