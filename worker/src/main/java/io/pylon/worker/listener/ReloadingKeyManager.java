package io.pylon.worker.listener;

import org.jspecify.annotations.Nullable;

import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;
import java.net.Socket;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;

/**
 * The listener's key manager: every handshake asks the pair in force at that moment, so a reloaded certificate serves
 * new connections while established ones keep the session they negotiated. A handshake asks for the chain and the key
 * in separate calls, by the alias it was given: the alias names the generation of the pair, and the one before the
 * current is kept, so a swap between the two calls cannot mix a new chain with an old key.
 *
 * <p>Threading: the generations are one volatile reference, swapped by the reload task and read by handshaking threads.
 */
final class ReloadingKeyManager extends X509ExtendedKeyManager {
    private static final String PREFIX = "listener-";

    private record Generations(int number, PemKeyPair current, @Nullable PemKeyPair previous) {
    }

    private volatile Generations pairs;

    ReloadingKeyManager(PemKeyPair initial) {
        this.pairs = new Generations(0, initial, null);
    }

    /** Called by one thread at a time (the reload task). */
    void use(PemKeyPair pair) {
        Generations now = pairs;
        pairs = new Generations(now.number() + 1, pair, now.current());
    }

    PemKeyPair current() {
        return pairs.current();
    }

    private @Nullable PemKeyPair byAlias(@Nullable String alias) {
        Generations now = pairs;
        if (alias == null || !alias.startsWith(PREFIX)) {
            return null;
        }
        String number = alias.substring(PREFIX.length());
        if (number.equals(String.valueOf(now.number()))) {
            return now.current();
        }
        return number.equals(String.valueOf(now.number() - 1)) ? now.previous() : null;
    }

    @Override
    public @Nullable String chooseEngineServerAlias(@Nullable String keyType, Principal @Nullable [] issuers,
                                                    @Nullable SSLEngine engine) {
        return chooseServerAlias(keyType, issuers, null);
    }

    @Override
    public @Nullable String chooseServerAlias(@Nullable String keyType, Principal @Nullable [] issuers,
                                              @Nullable Socket socket) {
        Generations now = pairs;
        String algorithm = now.current().key().getAlgorithm();
        boolean fits = keyType == null || keyType.equals(algorithm)
                || (keyType.equals("EC") && algorithm.equals("ECDSA"))
                || (keyType.equals("EdDSA") && algorithm.equals("Ed25519"))
                || (keyType.equals("RSASSA-PSS") && algorithm.equals("RSA"));
        return fits ? PREFIX + now.number() : null;
    }

    @Override
    public String @Nullable [] getServerAliases(@Nullable String keyType, Principal @Nullable [] issuers) {
        String alias = chooseServerAlias(keyType, issuers, null);
        return alias == null ? null : new String[]{alias};
    }

    @Override
    public X509Certificate @Nullable [] getCertificateChain(@Nullable String alias) {
        PemKeyPair pair = byAlias(alias);
        return pair == null ? null : pair.chain().toArray(X509Certificate[]::new);
    }

    @Override
    public @Nullable PrivateKey getPrivateKey(@Nullable String alias) {
        PemKeyPair pair = byAlias(alias);
        return pair == null ? null : pair.key();
    }

    @Override
    public String @Nullable [] getClientAliases(@Nullable String keyType, Principal @Nullable [] issuers) {
        return null;
    }

    @Override
    public @Nullable String chooseClientAlias(String @Nullable [] keyType, Principal @Nullable [] issuers,
                                              @Nullable Socket socket) {
        return null;
    }
}
