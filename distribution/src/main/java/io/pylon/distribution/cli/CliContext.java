package io.pylon.distribution.cli;

import org.jspecify.annotations.Nullable;

import java.time.Instant;

/**
 * One kubectl-style context: a Manager, who signed in and the token it gave, the default environment. {@code token}
 * is a secret: it is written only to the config file and into the Authorization header, never to a stream.
 *
 * @param expiresAt ISO-8601 instant when an access token from {@code pylon login} runs out; null for a personal token (its expiry is
 *                  the Manager's to tell)
 * @param segment   the path segment the environment's modules serve (platform unless renamed)
 */
public record CliContext(String name, String manager, String user, String token, @Nullable String expiresAt,
                         @Nullable String environment, @Nullable String segment) {

    public CliContext withEnvironment(String newEnvironment) {
        return new CliContext(name, manager, user, token, expiresAt, newEnvironment, segment);
    }

    public String segmentOrDefault() {
        return segment == null ? "platform" : segment;
    }

    public boolean expired(Instant now) {
        return expiresAt != null && !now.isBefore(Instant.parse(expiresAt));
    }

    @Override
    public String toString() {
        // a record's toString would show the token
        return "CliContext[" + name + ", " + manager + ", " + user + "]";
    }
}
