package io.pylon.distribution.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.pylon.core.config.SettingType;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code pylon tokens ...}: the caller's personal tokens. {@code create} shows the value once, on standard output
 * only (the one place a token is printed: the operator asked for it and the Manager never shows it again).
 */
@Command(name = "tokens", description = "Lists, creates and revokes your personal tokens.")
public final class TokensCommand implements Callable<Integer> {
    private final CliIo io;

    @Mixin
    ContextOptions contextOptions;

    @Mixin
    OutputOptions output;

    public TokensCommand(CliIo io) {
        this.io = io;
    }

    @Override
    public Integer call() {
        JsonNode tokens = manager().get(CliPaths.tokens()).path("tokens");
        Table table = new Table(List.of("ID", "NAME", "CREATED", "EXPIRES", "EXPIRED"));
        for (JsonNode token : tokens) {
            table.addValues(token.path("id").asText(), token.path("name").asText(), token.path("createdAt").asText(),
                    token.path("expiresAt").isNull() ? "never" : token.path("expiresAt").asText(), token.path("expired").asBoolean());
        }
        Printer.print(io, output, tokens, () -> table);
        return 0;
    }

    @Command(name = "create", description = "Creates a personal token and shows its value once.")
    int create(@Parameters(paramLabel = "NAME") String name,
               @Option(names = "--expires", paramLabel = "WHEN", description = "A duration (30d) or an ISO-8601 instant; default: never.") String expires) {
        ObjectNode body = HttpJson.MAPPER.createObjectNode().put("name", name);
        if (expires == null) {
            body.putNull("expiresAt");
        } else {
            body.put("expiresAt", expiry(expires));
        }
        JsonNode token = manager().send("POST", CliPaths.tokens(), body);
        io.err().println("Personal token " + Text.printable(token.path("name").asText()) + " (id " + token.path("id").asText()
                + ") created. Its value follows; it is not shown again:");
        io.out().println(token.path("token").asText());
        return 0;
    }

    @Command(name = "revoke", description = "Revokes one of your personal tokens by its ID.")
    int revoke(@Parameters(paramLabel = "ID") String id) {
        manager().send("DELETE", CliPaths.personalToken(id), null);
        io.out().println("Revoked token " + Text.printable(id) + ".");
        return 0;
    }

    private static String expiry(String value) {
        try {
            return Instant.now().plus(SettingType.DURATION_TYPE.parse(value)).toString();
        } catch (IllegalArgumentException e) {
            try {
                return Instant.parse(value).toString();
            } catch (DateTimeParseException notInstant) {
                throw CliException.usage("--expires expects a duration such as 30d or an ISO-8601 instant.");
            }
        }
    }

    private ManagerClient manager() {
        return Session.open(io, contextOptions).manager();
    }
}
