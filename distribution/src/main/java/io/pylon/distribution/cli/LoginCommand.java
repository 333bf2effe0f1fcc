package io.pylon.distribution.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.pylon.core.config.SettingType;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.net.URI;
import java.time.Instant;
import java.util.concurrent.Callable;

/**
 * {@code pylon login <manager-url>}: signs in with a password (asked without echo, or read from standard input) or
 * takes a personal token from standard input, and stores the token in a context of the config file. Neither the
 * password nor the token is ever printed, and neither is a command-line argument (shell history, {@code ps}).
 */
@Command(name = "login", description = "Signs in to a Manager and stores the token in a context (made current).")
public final class LoginCommand implements Callable<Integer> {
    private final CliIo io;

    @Parameters(index = "0", paramLabel = "MANAGER_URL", description = "The Manager, e.g. http://127.0.0.1:8080")
    String managerUrl;

    @Option(names = {"-u", "--username"}, description = "Account to sign in as (asked for when omitted on a terminal).")
    @Nullable String username;

    @ArgGroup(exclusive = true)
    Secret secret = new Secret();

    static final class Secret {
        @Option(names = "--password-stdin", description = "Read the password from the first line of standard input.")
        boolean passwordStdin;

        @Option(names = "--token-stdin", description = "Read a personal token (pylon_pat_...) from standard input instead of signing in.")
        boolean tokenStdin;
    }

    @Option(names = "--name", paramLabel = "CONTEXT", description = "Name of the context (default: the Manager's host:port).")
    @Nullable String contextName;

    @Option(names = "--env", paramLabel = "NAME", description = "Default environment of the context.")
    @Nullable String environment;

    @Option(names = "--path-segment", paramLabel = "SEGMENT", defaultValue = "platform",
            description = "Path segment the modules serve (default: platform).")
    String segment;

    public LoginCommand(CliIo io) {
        this.io = io;
    }

    @Override
    public Integer call() {
        URI url = managerUri();
        validateSegment();
        String base = url.getScheme() + "://" + url.getRawAuthority() + (url.getRawPath() == null ? "" : url.getRawPath().replaceAll("/+$", ""));
        String name = contextName != null ? contextName : url.getRawAuthority();

        String token;
        String user;
        String expiresAt = null;
        if (secret.tokenStdin) {
            token = SecretInput.firstLine(io, "token").strip();
            JsonNode me = new ManagerClient(base, token, name).get(CliPaths.me());
            user = me.path("username").asText();
        } else {
            user = username != null ? username : askUsername();
            String password = secret.passwordStdin ? SecretInput.firstLine(io, "password") : askPassword(user, base);
            JsonNode answer = ManagerClient.signIn(base, user, password);
            token = answer.path("access_token").asText();
            long lifetime = answer.path("expires_in").asLong(0);
            if (lifetime > 0) {
                expiresAt = Instant.now().plusSeconds(lifetime).truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString();
            }
        }
        if (environment != null) {
            // fails here, not at the first command, when the name is wrong
            new ManagerClient(base, token, name).get(CliPaths.environment(environment));
        }
        CliContext context = new CliContext(name, base, user, token, expiresAt, environment,
                "platform".equals(segment) ? null : segment);
        ConfigFile file = ConfigFile.locate(io.env());
        file.write(file.read().withCurrent(context));
        io.out().println("Logged in to " + base + " as " + Text.printable(user) + " (context " + Text.printable(name)
                + (expiresAt == null ? "" : ", token valid until " + expiresAt) + ").");
        return 0;
    }

    private URI managerUri() {
        try {
            URI url = URI.create(managerUrl);
            if ((!"http".equals(url.getScheme()) && !"https".equals(url.getScheme())) || url.getHost() == null
                    || url.getRawUserInfo() != null || url.getRawQuery() != null) {
                throw new IllegalArgumentException();
            }
            return url;
        } catch (IllegalArgumentException e) {
            throw CliException.usage("MANAGER_URL must be an http:// or https:// URL without user or query, such as "
                    + "http://127.0.0.1:8080, not '" + Text.printable(managerUrl) + "'.");
        }
    }

    private void validateSegment() {
        try {
            SettingType.PATH_SEGMENT.parse(segment);
        } catch (IllegalArgumentException e) {
            throw CliException.usage("--path-segment expects " + SettingType.PATH_SEGMENT.expected() + ".");
        }
    }

    private String askUsername() {
        java.io.Console console = terminalConsole("--username");
        String line = console.readLine("Username: ");
        if (line == null || line.isBlank()) {
            throw CliException.usage("No username given.");
        }
        return line.strip();
    }

    private String askPassword(String user, String base) {
        java.io.Console console = terminalConsole("--password-stdin");
        char[] chars = console.readPassword("Password for %s at %s: ", Text.printable(user), base);
        if (chars == null || chars.length == 0) {
            throw CliException.usage("No password given.");
        }
        String password = new String(chars);
        java.util.Arrays.fill(chars, '\0');
        return password;
    }

    private java.io.Console terminalConsole(String alternative) {
        java.io.Console console = System.console();
        if (console == null || !io.terminal()) {
            throw CliException.usage("No terminal to ask on: pass " + alternative + ".");
        }
        return console;
    }
}
