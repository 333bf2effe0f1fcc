package io.pylon.core.http;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalInt;
import java.util.Set;

/**
 * Open client connections of this process's server, read from the kernel's socket table: the established TCP
 * sockets owned by this process (their inodes under {@code /proc/self/fd}) whose local port is the server's. Helidon
 * does not expose connection open and close events to routing, and the kernel's count also includes connections
 * that are open but have not sent a request. Empty where {@code /proc} is not available (not Linux).
 */
public final class OpenClientConnections {
    private static final Path FDS = Path.of("/proc/self/fd");
    private static final List<Path> TABLES = List.of(Path.of("/proc/net/tcp"), Path.of("/proc/net/tcp6"));
    private static final String ESTABLISHED = "01";

    private OpenClientConnections() {
    }

    public static OptionalInt count(int port) {
        if (port <= 0 || !Files.isDirectory(FDS)) {
            return OptionalInt.empty();
        }
        try {
            Set<String> inodes = ownSocketInodes();
            int count = 0;
            for (Path table : TABLES) {
                if (Files.isReadable(table)) {
                    count += countIn(Files.readAllLines(table), port, inodes);
                }
            }
            return OptionalInt.of(count);
        } catch (IOException | RuntimeException e) {
            // the table changed shape or vanished under us: report unknown rather than a wrong number
            return OptionalInt.empty();
        }
    }

    private static Set<String> ownSocketInodes() throws IOException {
        Set<String> inodes = new HashSet<>();
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(FDS)) {
            for (Path fd : fds) {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    if (target.startsWith("socket:[")) {
                        inodes.add(target.substring(8, target.length() - 1));
                    }
                } catch (IOException e) {
                    // closed between listing and reading
                }
            }
        }
        return inodes;
    }

    // Line: "sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode ..."; addresses are HEX_IP:HEX_PORT.
    // The tables list every socket of the network namespace (thousands on a busy node): each line is scanned by hand,
    // the state and port first, without the regular expression and the array a split would cost per line.
    static int countIn(List<String> lines, int port, Set<String> inodes) {
        int count = 0;
        int[] bounds = new int[2];
        for (int i = 1; i < lines.size(); i++) {
            String line = lines.get(i);
            if (!field(line, 3, 0, bounds) || !line.regionMatches(bounds[0], ESTABLISHED, 0, bounds[1] - bounds[0])
                    || bounds[1] - bounds[0] != ESTABLISHED.length()) {
                continue;
            }
            if (!field(line, 1, 0, bounds)) {
                continue;
            }
            int colon = line.indexOf(':', bounds[0]);
            if (colon < 0 || colon >= bounds[1]) {
                continue;
            }
            int localPort = Integer.parseInt(line, colon + 1, bounds[1], 16);
            if (localPort == port && field(line, 9, 0, bounds) && inodes.contains(line.substring(bounds[0], bounds[1]))) {
                count++;
            }
        }
        return count;
    }

    /** Finds the whitespace-separated field {@code index} of {@code line} into {@code bounds} (start, end). */
    private static boolean field(String line, int index, int from, int[] bounds) {
        int pos = from;
        int n = line.length();
        for (int f = 0; ; f++) {
            while (pos < n && Character.isWhitespace(line.charAt(pos))) {
                pos++;
            }
            if (pos >= n) {
                return false;
            }
            int start = pos;
            while (pos < n && !Character.isWhitespace(line.charAt(pos))) {
                pos++;
            }
            if (f == index) {
                bounds[0] = start;
                bounds[1] = pos;
                return true;
            }
        }
    }
}
