package io.pylon.integration.step;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.HexFormat;

/**
 * The signature of a webhook body: {@code X-Pylon-Signature: sha256=<hex HMAC-SHA256 of "<timestamp>.<body>">} with
 * {@code X-Pylon-Timestamp: <unix seconds>}, so a receiver can check both the body and its age.
 */
public final class WebhookSignature {
    public static final String SIGNATURE_HEADER = "X-Pylon-Signature";
    public static final String TIMESTAMP_HEADER = "X-Pylon-Timestamp";

    private WebhookSignature() {
    }

    public static String sign(byte[] secret, long timestamp, byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret, "HmacSHA256"));
            mac.update((timestamp + ".").getBytes(StandardCharsets.US_ASCII));
            return "sha256=" + HexFormat.of().formatHex(mac.doFinal(body));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
