package io.pylon.distribution.cli;

import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.zip.Deflater;
import java.util.zip.GZIPOutputStream;

/**
 * {@code pylon dump heap <pod> -o file.hprof[.gz]}: streams the pod's heap dump to disk through the Manager, with a
 * progress bar on a terminal. It is written to {@code <file>.part} and renamed when complete; a failure or Ctrl-C
 * removes the part file, so no truncated dump is left that looks whole. A {@code .gz} name is compressed here.
 */
@Command(name = "heap", description = "Streams a pod's heap dump (HPROF) to a file; .gz compresses it.")
public final class HeapDumpCommand implements Callable<Integer> {
    static final Duration TIMEOUT = Duration.ofMinutes(10);

    private final CliIo io;

    @Parameters(paramLabel = "POD")
    String pod;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", required = true, description = "file.hprof or file.hprof.gz")
    Path file;

    @Option(names = "--module", paramLabel = "MODULE", description = "worker or cache (default: found from the pod name).")
    @Nullable String module;

    @Mixin
    ContextOptions contextOptions;

    public HeapDumpCommand(CliIo io) {
        this.io = io;
    }

    @Override
    public Integer call() throws IOException {
        if (Files.isDirectory(file)) {
            throw CliException.usage("-o names a folder; give a file name such as " + pod + ".hprof.");
        }
        Session session = Session.open(io, contextOptions);
        String environment = session.environment();
        Path part = file.resolveSibling(file.getFileName() + ".part");
        Thread cleanUp = new Thread(() -> deleteQuietly(part), "heap-dump-clean-up");
        Runtime.getRuntime().addShutdownHook(cleanUp);
        try {
            long written = PodLocator.call(pod, module, candidate -> download(session, environment, candidate, part));
            Files.move(part, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            io.err().println("Wrote the heap dump of " + Text.printable(pod) + " to " + file + " (" + Units.bytes(written) + ").");
            return 0;
        } finally {
            deleteQuietly(part);
            Runtime.getRuntime().removeShutdownHook(cleanUp);
        }
    }

    private PodLocator.Attempt<Long> download(Session session, String environment, String module, Path part) {
        HttpJson.Streamed response;
        try {
            response = session.manager().stream(CliPaths.diagnostics(environment, module, "heapdump", pod, null), TIMEOUT);
        } catch (CliException e) {
            if (String.valueOf(e.getMessage()).contains("HTTP 404")) {
                return PodLocator.Attempt.missing(e.getMessage());
            }
            throw e;
        }
        long total = response.contentLength();
        ProgressBar bar = io.terminal() ? new ProgressBar(io.err(), total) : null;
        long done = 0;
        boolean gzip = file.getFileName().toString().endsWith(".gz");
        try (InputStream in = response.body();
             OutputStream raw = Files.newOutputStream(part);
             OutputStream out = gzip ? new GZIPOutputStream(raw, 64 * 1024) { { def.setLevel(Deflater.BEST_SPEED); } } : raw) {
            byte[] buffer = new byte[64 * 1024];
            int n;
            while ((n = in.read(buffer)) >= 0) {
                out.write(buffer, 0, n);
                done += n;
                if (bar != null) {
                    bar.update(done);
                }
            }
        } catch (IOException e) {
            throw CliException.failed("The heap dump of " + Text.printable(pod) + " broke off after " + Units.bytes(done)
                    + " (" + e.getClass().getSimpleName() + "); nothing was kept.");
        }
        if (total >= 0 && done != total) {
            throw CliException.failed("The heap dump of " + Text.printable(pod) + " ended after " + done + " of " + total
                    + " bytes; nothing was kept.");
        }
        if (bar != null) {
            bar.finish(done);
        }
        return PodLocator.Attempt.found(done);
    }

    private static void deleteQuietly(Path path) {
        try {
            Files.deleteIfExists(path);
        } catch (IOException e) {
            // best effort at exit; the .part name says what it is
        }
    }
}
