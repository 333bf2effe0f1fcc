package io.pylon.manager.auth;

import io.pylon.manager.api.Principal;
import org.jspecify.annotations.Nullable;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/** Issues, checks and revokes tokens. Every check re-reads token and account state (through a short cache). */
public final class TokenService {
    private final TokenRepository tokens;
    private final TokenCodec codec = new TokenCodec();
    private final TokenCheckCache cache;
    private final Duration accessLifetime;
    private final Clock clock;

    public TokenService(TokenRepository tokens, Duration accessLifetime, Duration cacheLifetime, Clock clock) {
        this.tokens = tokens;
        this.accessLifetime = accessLifetime;
        this.cache = new TokenCheckCache(cacheLifetime);
        this.clock = clock;
    }

    /** A new access token's value (returned once, stored only as a hash) and its lifetime. */
    public record Issued(String id, String value, Instant createdAt, @Nullable Instant expiresAt) {
    }

    public Issued issueAccessToken(String username) {
        Instant now = clock.instant();
        String value = codec.newAccessToken();
        Issued issued = new Issued(UUID.randomUUID().toString(), value, now, now.plus(accessLifetime));
        tokens.insert(issued.id(), username, StoredToken.Kind.ACCESS, null, TokenCodec.hash(value), now, issued.expiresAt());
        return issued;
    }

    public Issued createPersonalToken(String username, String name, @Nullable Instant expiresAt) {
        Instant now = clock.instant();
        String value = codec.newPersonalToken();
        Issued issued = new Issued(UUID.randomUUID().toString(), value, now, expiresAt);
        tokens.insert(issued.id(), username, StoredToken.Kind.PERSONAL, name, TokenCodec.hash(value), now, expiresAt);
        return issued;
    }

    public long accessLifetimeSeconds() {
        return accessLifetime.toSeconds();
    }

    /** The principal a presented token stands for, if the token is usable now. */
    public Optional<Principal> authenticate(String value) {
        if (!TokenCodec.looksLikeToken(value)) {
            return Optional.empty();
        }
        String hash = TokenCodec.hash(value);
        StoredToken token = cache.get(hash);
        if (token == null) {
            token = tokens.findByHash(hash).orElse(null);
            if (token == null) {
                return Optional.empty();
            }
            cache.put(hash, token);
        }
        if (!token.usableAt(clock.instant())) {
            return Optional.empty();
        }
        return Optional.of(new Principal(token.username(), token.role(), token.id()));
    }

    /** The stored token behind a value, whatever its state (for revocation). */
    public Optional<StoredToken> find(String value) {
        if (!TokenCodec.looksLikeToken(value)) {
            return Optional.empty();
        }
        return tokens.findByHash(TokenCodec.hash(value));
    }

    public boolean revoke(String tokenId) {
        cache.forgetToken(tokenId);
        return tokens.revoke(tokenId, clock.instant());
    }

    public boolean revokePersonal(String tokenId, String username) {
        cache.forgetToken(tokenId);
        return tokens.revokePersonal(tokenId, username, clock.instant());
    }

    public int revokeAll(String username) {
        cache.forgetUser(username);
        return tokens.revokeAll(username, clock.instant());
    }

    public List<StoredToken> listPersonal(String username) {
        return tokens.listPersonal(username);
    }

    /** The account changed (role, enabled, deleted): its cached checks must be redone. */
    public void accountChanged(String username) {
        cache.forgetUser(username);
    }

    public int purgeBefore(Instant before) {
        return tokens.purge(before);
    }
}
