package io.pylon.cache.client;

import io.pylon.core.config.InvalidSettingException;
import io.pylon.core.config.Settings;
import io.pylon.core.pod.CoreSettings;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.HexFormat;
import java.util.Locale;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The Hazelcast cluster name of an environment and the label shown in its place. Hazelcast's open-source edition
 * authenticates neither members nor clients: whoever sends the cluster name to port 5701 joins and may read, write
 * or clear every map. So the name is a secret, an HMAC-SHA256 keyed by the environment ID (128 bits of it, in hex):
 * only holders of the ID can compute it, and it reveals nothing about the ID. The label ({@code pylon-<environment
 * name>-<12 hex>}, from the same key with another message) tells environments apart in diagnostics and log lines
 * and lets nobody join. {@link #toString()} shows the label only.
 *
 * @param secret what members and clients configure as the cluster name; never displayed, returned or logged
 * @param label  what diagnostics, the console and log lines show instead
 */
public record GridClusterName(String secret, String label) {
    private static final String SECRET_CONTEXT = "pylon data grid cluster name\n";
    private static final String LABEL_CONTEXT = "pylon data grid label\n";

    /** The environment's names from its settings; fails naming the setting when the environment ID is not set. */
    public static GridClusterName of(Settings settings) {
        String id = settings.find(CoreSettings.ENVIRONMENT_ID);
        if (id == null || id.isEmpty()) {
            throw new InvalidSettingException("Setting " + CoreSettings.ENVIRONMENT_ID.key() + " (environment variable "
                    + CoreSettings.ENVIRONMENT_ID.envName() + ") is not set: the data grid's cluster name, the only "
                    + "thing that lets a member or client in, is derived from it.");
        }
        return of(settings.get(CoreSettings.ENVIRONMENT_NAME), id);
    }

    /** Derives both names; the environment ID must be set (it is the only key). */
    public static GridClusterName of(String environmentName, String environmentId) {
        if (environmentId == null || environmentId.isEmpty()) {
            throw new IllegalArgumentException("the data grid's cluster name needs the environment ID");
        }
        String name = environmentName.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9-]+", "-");
        byte[] key = environmentId.getBytes(StandardCharsets.UTF_8);
        return new GridClusterName("pylon-grid-" + hmacHex(key, SECRET_CONTEXT + name, 16),
                "pylon-" + name + "-" + hmacHex(key, LABEL_CONTEXT + name, 6));
    }

    private static String hmacHex(byte[] key, String message, int bytes) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return HexFormat.of().formatHex(mac.doFinal(message.getBytes(StandardCharsets.UTF_8)), 0, bytes);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }

    @Override
    public String toString() {
        return label;
    }
}
