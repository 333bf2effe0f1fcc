package io.pylon.distribution.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.util.List;
import java.util.concurrent.Callable;

/** {@code pylon users ...}: the Manager's accounts (admins only). Passwords come from a prompt or standard input. */
@Command(name = "users", description = "Lists and manages the Manager's accounts (admin role).")
public final class UsersCommand implements Callable<Integer> {
    private final CliIo io;

    @Mixin
    ContextOptions contextOptions;

    @Mixin
    OutputOptions output;

    public UsersCommand(CliIo io) {
        this.io = io;
    }

    @Override
    public Integer call() {
        JsonNode users = manager().get(CliPaths.users()).path("users");
        Table table = new Table(List.of("USERNAME", "ROLE", "ENABLED", "LOCKED", "FAILED", "CREATED"));
        for (JsonNode user : users) {
            table.addValues(user.path("username").asText(), user.path("role").asText(), user.path("enabled").asBoolean(),
                    user.path("locked").asBoolean(), user.path("failedAttempts").asInt(), user.path("createdAt").asText());
        }
        Printer.print(io, output, users, () -> table);
        return 0;
    }

    @Command(name = "create", description = "Creates an account.")
    int create(@Parameters(paramLabel = "USERNAME") String username,
               @Option(names = "--role", defaultValue = "viewer", description = "viewer (default), operator (also changes and deploys API proxies) or admin.") String role,
               @Option(names = "--password-stdin", description = "Read the password from standard input.") boolean stdin) {
        ObjectNode body = HttpJson.MAPPER.createObjectNode().put("username", username).put("role", role)
                .put("password", SecretInput.password(io, stdin, "Password for " + Text.printable(username)));
        JsonNode user = manager().send("POST", CliPaths.users(), body);
        io.out().println("Created user " + Text.printable(user.path("username").asText()) + " (" + user.path("role").asText() + ").");
        return 0;
    }

    @Command(name = "set-role", description = "Changes an account's role.")
    int setRole(@Parameters(paramLabel = "USERNAME") String username, @Parameters(paramLabel = "ROLE") String role) {
        return patch(username, HttpJson.MAPPER.createObjectNode().put("role", role), "now has the role " + role);
    }

    @Command(name = "enable", description = "Enables an account.")
    int enable(@Parameters(paramLabel = "USERNAME") String username) {
        return patch(username, HttpJson.MAPPER.createObjectNode().put("enabled", true), "is enabled");
    }

    @Command(name = "disable", description = "Disables an account (its tokens are revoked).")
    int disable(@Parameters(paramLabel = "USERNAME") String username) {
        return patch(username, HttpJson.MAPPER.createObjectNode().put("enabled", false), "is disabled");
    }

    @Command(name = "unlock", description = "Unlocks an account locked after failed logins.")
    int unlock(@Parameters(paramLabel = "USERNAME") String username) {
        manager().send("POST", CliPaths.user(username, "unlock"), null);
        io.out().println("User " + Text.printable(username) + " is unlocked.");
        return 0;
    }

    @Command(name = "reset-password", description = "Sets a new password (the account's tokens are revoked).")
    int resetPassword(@Parameters(paramLabel = "USERNAME") String username,
                      @Option(names = "--password-stdin", description = "Read the password from standard input.") boolean stdin) {
        ObjectNode body = HttpJson.MAPPER.createObjectNode()
                .put("password", SecretInput.password(io, stdin, "New password for " + Text.printable(username)));
        manager().send("POST", CliPaths.user(username, "password"), body);
        io.out().println("The password of " + Text.printable(username) + " was changed.");
        return 0;
    }

    @Command(name = "delete", description = "Deletes an account and its tokens.")
    int delete(@Parameters(paramLabel = "USERNAME") String username) {
        manager().send("DELETE", CliPaths.user(username), null);
        io.out().println("Deleted user " + Text.printable(username) + ".");
        return 0;
    }

    private int patch(String username, ObjectNode body, String what) {
        manager().send("PATCH", CliPaths.user(username), body);
        io.out().println("User " + Text.printable(username) + " " + what + ".");
        return 0;
    }

    private ManagerClient manager() {
        return Session.open(io, contextOptions).manager();
    }
}
