package io.pylon.distribution;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.Properties;
import java.util.Set;

/**
 * Which of some local processes serves an H2 database opened with {@code AUTO_SERVER}: the one listening on the TCP port
 * that the database's lock file names ({@code server=host:port}). Read from {@code /proc} (Linux): the listening
 * sockets on that port, then the process holding one of them. Empty where {@code /proc} is missing, when no process
 * of those given holds the port, or when the lock file is absent or says no server.
 */
final class SharedH2Server {

    private static final String LISTEN = "0A";

    private final Path proc;

    SharedH2Server(Path proc) {
        this.proc = proc;
    }

    static SharedH2Server ofThisMachine() {
        return new SharedH2Server(Path.of("/proc"));
    }

    /** The process among {@code pids} that serves the database whose lock file is {@code lockFile}. */
    OptionalLong servingPid(Path lockFile, Collection<Long> pids) {
        int port = serverPort(lockFile);
        if (port <= 0) {
            return OptionalLong.empty();
        }
        Set<String> sockets = listeningSockets(port);
        if (sockets.isEmpty()) {
            return OptionalLong.empty();
        }
        for (long pid : pids) {
            if (holdsAny(pid, sockets)) {
                return OptionalLong.of(pid);
            }
        }
        return OptionalLong.empty();
    }

    /** The port of {@code server=host:port} in H2's lock file; 0 when there is none. */
    static int serverPort(Path lockFile) {
        Properties lock = new Properties();
        try (Reader reader = Files.newBufferedReader(lockFile, StandardCharsets.ISO_8859_1)) {
            lock.load(reader);
        } catch (IOException | IllegalArgumentException e) {
            return 0;
        }
        String server = lock.getProperty("server", "");
        int colon = server.lastIndexOf(':');
        try {
            int port = Integer.parseInt(server.substring(colon + 1).trim());
            return port > 0 && port < 65_536 ? port : 0;
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** The socket names ({@code socket:[inode]}) of every listening TCP socket on {@code port}, IPv4 and IPv6. */
    private Set<String> listeningSockets(int port) {
        String hexPort = String.format(Locale.ROOT, ":%04X", port);
        Set<String> sockets = new HashSet<>();
        for (String table : List.of("net/tcp", "net/tcp6")) {
            List<String> lines;
            try {
                lines = Files.readAllLines(proc.resolve(table), StandardCharsets.US_ASCII);
            } catch (IOException e) {
                continue;
            }
            for (String line : lines.subList(Math.min(1, lines.size()), lines.size())) {
                String[] fields = line.trim().split("\\s+");
                if (fields.length > 9 && fields[1].endsWith(hexPort) && fields[3].equals(LISTEN)) {
                    sockets.add("socket:[" + fields[9] + "]");
                }
            }
        }
        return sockets;
    }

    private boolean holdsAny(long pid, Set<String> sockets) {
        try (DirectoryStream<Path> descriptors = Files.newDirectoryStream(proc.resolve(Long.toString(pid)).resolve("fd"))) {
            for (Path descriptor : descriptors) {
                try {
                    if (sockets.contains(Files.readSymbolicLink(descriptor).toString())) {
                        return true;
                    }
                } catch (IOException e) {
                    // closed while we looked
                }
            }
        } catch (IOException e) {
            return false;
        }
        return false;
    }
}
