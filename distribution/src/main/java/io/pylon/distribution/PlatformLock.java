package io.pylon.distribution;

import org.jspecify.annotations.Nullable;

import com.fasterxml.jackson.databind.JsonNode;
import io.pylon.core.http.Json;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * One {@code pylon up} per state directory: a lock on {@code <state dir>/up.lock}, held until this process ends (the
 * system releases it even after a SIGKILL), holding the pid of its owner. A second {@code pylon up} on the same
 * directory would share the Manager's database and overwrite cluster.json; it learns at once who runs there instead.
 * Taken once at start-up by the main thread; the channel stays open for the life of the process.
 */
final class PlatformLock {
    static final String FILE = "up.lock";

    private final FileChannel channel;

    private PlatformLock(FileChannel channel) {
        this.channel = channel;
    }

    /** The lock of {@code stateDir}, or null when another live process holds it. */
    static @Nullable PlatformLock tryAcquire(Path stateDir) throws IOException {
        FileChannel channel = FileChannel.open(stateDir.resolve(FILE), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        FileLock lock;
        try {
            lock = channel.tryLock();
        } catch (IOException e) {
            lock = null;
        }
        if (lock == null) {
            channel.close();
            return null;
        }
        channel.truncate(0);
        channel.write(ByteBuffer.wrap((ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.US_ASCII)));
        channel.force(false);
        return new PlatformLock(channel);
    }

    /**
     * One line naming the platform that holds {@code stateDir}: its pid, the Manager's URL when cluster.json has it
     * (the platform may still be starting), and what to do.
     */
    static String alreadyRunning(Path stateDir) {
        StringBuilder line = new StringBuilder("pylon: a platform is already running from ").append(stateDir);
        String pid = read(stateDir.resolve(FILE));
        String where = managerUrl(stateDir.resolve("cluster.json"));
        line.append(" (").append(pid.isEmpty() ? "" : "pid " + pid + ", ")
                .append(where == null ? "still starting" : "Manager " + where).append(")");
        return line.append("; stop it with Ctrl-C in its terminal, or start this one with another --state-dir").toString();
    }

    private static String read(Path file) {
        try {
            String text = Files.readString(file, StandardCharsets.US_ASCII).strip();
            return text.matches("\\d{1,10}") ? text : "";
        } catch (IOException e) {
            return "";
        }
    }

    private static @Nullable String managerUrl(Path cluster) {
        try {
            JsonNode pods = Json.MAPPER.readTree(cluster.toFile()).path("modules").path("manager").path("pods");
            return pods.isArray() && !pods.isEmpty() ? pods.get(0).path("url").asText(null) : null;
        } catch (IOException e) {
            return null;
        }
    }

    /** Keeps the lock reachable: a collected channel would close and give the directory away. */
    boolean held() {
        return channel.isOpen();
    }
}
