package io.pylon.core.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * How many connections the kernel holds in a listening socket's accept queue (handshake done, not yet accepted), read
 * from {@code /proc/net/tcp} and {@code tcp6} (Linux: a listening socket's {@code rx_queue} is its accept queue).
 * Stateless; safe from any thread.
 */
final class AcceptQueue {
    private static final String LISTEN = "0A";
    private static final List<Path> TABLES = List.of(Path.of("/proc/net/tcp"), Path.of("/proc/net/tcp6"));

    private AcceptQueue() {
    }

    /** Connections queued on the listening sockets of {@code port}; -1 when this system does not tell. */
    static int length(int port) {
        String localPort = String.format(Locale.ROOT, ":%04X", port);
        int queued = -1;
        for (Path table : TABLES) {
            try (Stream<String> lines = Files.lines(table)) {
                for (String line : (Iterable<String>) lines::iterator) {
                    // sl local_address rem_address st tx_queue:rx_queue ...
                    String[] fields = line.trim().split("\\s+", 6);
                    if (fields.length > 4 && LISTEN.equals(fields[3]) && fields[1].endsWith(localPort)) {
                        queued = Math.max(queued, 0) + Integer.parseInt(fields[4].substring(fields[4].indexOf(':') + 1), 16);
                    }
                }
            } catch (IOException | UncheckedIOException | NumberFormatException e) {
                // not Linux, or no such table (no IPv6): this table tells nothing
            }
        }
        return queued;
    }
}
