package io.pylon.manager.api;

import java.util.Optional;

/**
 * Who a Bearer token belongs to, if anyone: the one thing the HTTP layer needs from the token store, so that the
 * endpoints' guard ({@link BearerAuth}, {@link Secured}) sits below the services that issue and check tokens.
 */
@FunctionalInterface
public interface TokenAuthenticator {

    /** The principal of a valid token; empty for one that is unknown, expired, revoked or of a disabled account. */
    Optional<Principal> authenticate(String token);
}
