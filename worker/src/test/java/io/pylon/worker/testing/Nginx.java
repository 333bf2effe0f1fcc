package io.pylon.worker.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real nginx ({@code /usr/sbin/nginx}, Debian's nginx-light) started in the foreground with a configuration the
 * test writes under a temporary prefix, listening on a free loopback port: what an operator would put in front of
 * the same upstream, to compare the Worker with. Not thread-safe: started and stopped by one test class.
 */
public final class Nginx implements AutoCloseable {
    private static final List<String> CANDIDATES = List.of("/usr/sbin/nginx", "/usr/bin/nginx", "/usr/local/sbin/nginx");

    private final Process process;
    private final Path prefix;
    private final int port;

    private Nginx(Process process, Path prefix, int port) {
        this.process = process;
        this.prefix = prefix;
        this.port = port;
    }

    /** The nginx binary, or a failure that names the package to install. */
    public static Path binary() {
        for (String candidate : CANDIDATES) {
            Path path = Path.of(candidate);
            if (Files.isExecutable(path)) {
                return path;
            }
        }
        throw new AssertionError("nginx is missing (looked for " + CANDIDATES + "): the conformance suite compares the"
                + " Worker with a real nginx; install it with `apt-get install nginx-light` (.ci/run does)");
    }

    /**
     * Starts nginx with {@code serverBlock} (the body of one {@code server {}} block, without {@code listen}, which
     * this class adds) and {@code httpBlock} (directives of the {@code http {}} block, such as an {@code upstream}).
     */
    public static Nginx start(String httpBlock, String serverBlock) {
        Path binary = binary();
        try {
            Path prefix = Files.createTempDirectory("pylon-nginx");
            // worker processes run as an unprivileged user when the master is root: they must reach the prefix
            Files.setPosixFilePermissions(prefix, PosixFilePermissions.fromString("rwxr-xr-x"));
            int port = freePort();
            String conf = """
                    worker_processes 1;
                    pid %1$s/nginx.pid;
                    error_log %1$s/error.log warn;
                    events { worker_connections 1024; }
                    http {
                        access_log off;
                        client_body_temp_path %1$s/client_body;
                        proxy_temp_path %1$s/proxy;
                        fastcgi_temp_path %1$s/fastcgi;
                        uwsgi_temp_path %1$s/uwsgi;
                        scgi_temp_path %1$s/scgi;
                    %2$s
                        server {
                            listen 127.0.0.1:%3$d;
                    %4$s
                        }
                    }
                    """.formatted(prefix, httpBlock, port, serverBlock);
            Path confFile = prefix.resolve("nginx.conf");
            Files.writeString(confFile, conf);
            Process process = new ProcessBuilder(binary.toString(), "-p", prefix.toString(), "-c", confFile.toString(),
                    "-e", prefix.resolve("error.log").toString(), "-g", "daemon off;")
                    .redirectErrorStream(true).redirectOutput(prefix.resolve("stdout.log").toFile()).start();
            Nginx nginx = new Nginx(process, prefix, port);
            nginx.awaitListening();
            return nginx;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void awaitListening() throws IOException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new AssertionError("nginx exited with " + process.exitValue() + ": " + errorLog());
            }
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress("127.0.0.1", port), 1000);
                return;
            } catch (IOException e) {
                sleep();
            }
        }
        close();
        throw new AssertionError("nginx did not listen on 127.0.0.1:" + port + " within 30 s: " + errorLog());
    }

    private static void sleep() {
        try {
            Thread.sleep(50);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            return socket.getLocalPort();
        }
    }

    public int port() {
        return port;
    }

    /** nginx's error log so far (what it said about an upstream that misbehaved). */
    public String errorLog() {
        try {
            Path log = prefix.resolve("error.log");
            Path out = prefix.resolve("stdout.log");
            return (Files.exists(log) ? Files.readString(log) : "") + (Files.exists(out) ? Files.readString(out) : "");
        } catch (IOException e) {
            return "(cannot read nginx's log: " + e + ")";
        }
    }

    @Override
    public void close() {
        process.destroy(); // SIGTERM: nginx's fast shutdown
        try {
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try (var files = Files.walk(prefix)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a temporary directory left behind
        }
    }
}
