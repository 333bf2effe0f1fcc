package io.pylon.distribution;

import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * The environment of the local platform: its name and its 24-hex-digit ID, kept in {@code .pylon/environment-id}
 * (owner-only) so that restarts keep the same ID. Worker and Cache pods receive it in their settings. Also the
 * Manager's first administrator, whose generated password is kept in {@code .pylon/admin-password} (owner-only):
 * the Manager's database under {@code .pylon/data} outlives a restart, so the password must too. The same for the
 * Portal pod's Manager account ({@code .pylon/portal-password}) and a developer account of the Portal
 * ({@code .pylon/developer-password}).
 */
record LocalEnvironment(String name, String id, String adminUsername, String adminPassword, String portalPassword,
                        String developerPassword) {
    static final String NAME = "local";
    static final String ADMIN = "admin";
    /** The Portal pod's own Manager account (role portal). */
    static final String PORTAL_ACCOUNT = "portal";
    /** A developer account of the Portal, to sign in there at once. */
    static final String DEVELOPER = "developer@pylon.local";

    static LocalEnvironment load(Path stateDir) throws IOException {
        SecureRandom random = new SecureRandom();
        String id = readOrCreate(stateDir.resolve("environment-id"), "[0-9a-f]{24}", () -> {
            byte[] bytes = new byte[12];
            random.nextBytes(bytes);
            return HexFormat.of().formatHex(bytes);
        });
        // letters and digits only (the Manager's own generator): the password works as typed in curl -u and in a form
        String password = readOrCreate(stateDir.resolve("admin-password"), "[A-Za-z0-9]{24}",
                io.pylon.manager.auth.FirstAdmin::generate);
        String portal = readOrCreate(stateDir.resolve("portal-password"), "[A-Za-z0-9]{24}",
                io.pylon.manager.auth.FirstAdmin::generate);
        String developer = readOrCreate(stateDir.resolve("developer-password"), "[A-Za-z0-9]{24}",
                io.pylon.manager.auth.FirstAdmin::generate);
        return new LocalEnvironment(NAME, id, ADMIN, password, portal, developer);
    }

    private static String readOrCreate(Path file, String format, java.util.function.Supplier<String> generate)
            throws IOException {
        if (Files.exists(file)) {
            String value = Files.readString(file).strip();
            if (value.matches(format)) {
                return value;
            }
        }
        String value = generate.get();
        OwnerOnlyFiles.write(file, (value + "\n").getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        return value;
    }

    /**
     * Adds {@code "environment": {"name", "id"}}, {@code "admin": {"username", "password"}} and the Portal's developer
     * account {@code "developer": {"email", "password"}} to cluster.json.
     */
    void describe(ObjectNode root) {
        ObjectNode env = root.putObject("environment");
        env.put("name", name);
        env.put("id", id);
        ObjectNode admin = root.putObject("admin");
        admin.put("username", adminUsername);
        admin.put("password", adminPassword);
        ObjectNode developer = root.putObject("developer");
        developer.put("email", DEVELOPER);
        developer.put("password", developerPassword);
    }
}
