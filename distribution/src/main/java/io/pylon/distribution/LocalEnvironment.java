package io.pylon.distribution;

import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Set;

/**
 * The environment of the local platform: its name and its 24-hex-digit ID, kept in {@code .pylon/environment-id}
 * (owner-only) so that restarts keep the same ID. Worker and Cache pods receive it in their settings.
 */
record LocalEnvironment(String name, String id) {
    static final String NAME = "local";

    static LocalEnvironment load(Path stateDir) throws IOException {
        Path file = stateDir.resolve("environment-id");
        if (Files.exists(file)) {
            String id = Files.readString(file).strip();
            if (id.matches("[0-9a-f]{24}")) {
                return new LocalEnvironment(NAME, id);
            }
        }
        byte[] bytes = new byte[12];
        new SecureRandom().nextBytes(bytes);
        String id = HexFormat.of().formatHex(bytes);
        Files.writeString(file, id + "\n");
        try {
            Files.setPosixFilePermissions(file, Set.of(java.nio.file.attribute.PosixFilePermission.OWNER_READ,
                    java.nio.file.attribute.PosixFilePermission.OWNER_WRITE));
        } catch (UnsupportedOperationException e) {
            // not a POSIX file system: the file keeps the default permissions
        }
        return new LocalEnvironment(NAME, id);
    }

    /** Adds {@code "environment": {"name", "id"}} to cluster.json. */
    void describe(ObjectNode root) {
        ObjectNode env = root.putObject("environment");
        env.put("name", name);
        env.put("id", id);
    }
}
