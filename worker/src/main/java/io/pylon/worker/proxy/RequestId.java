package io.pylon.worker.proxy;

import io.helidon.http.HeaderName;
import io.helidon.http.Headers;
import org.jspecify.annotations.Nullable;

import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The identifier of a proxied request, in {@code X-Request-Id}: sent to the upstream, returned to the client (on the
 * gateway's own answers too: a 502 or a 429 is when an operator needs it) and written to the access log, so that one
 * request can be followed through the client's report, the gateway and the upstream's logs. Envoy and Kong (its
 * {@code X-Kong-Request-Id}) do the same by default; nginx has {@code $request_id} for its configuration to use.
 *
 * <p>A client's own value is kept only from a {@link io.pylon.gateway.model.TrustedProxies trusted proxy} (a load
 * balancer in front that gave the request its identifier), and only when it is well-formed ({@link #isWellFormed});
 * from anyone else it is replaced, as the forwarding headers are: an identifier a client chooses could repeat another
 * request's and confuse whoever reads the logs. A new one is a random UUID (version 4) from the thread's
 * non-cryptographic generator: it must be unique, not secret, and {@link UUID#randomUUID}'s {@code SecureRandom} would
 * cost more than the rest of this stage. Stateless.
 */
final class RequestId {
    static final HeaderName NAME = io.pylon.core.http.Refusals.REQUEST_ID;
    /** The longest identifier kept from a trusted proxy (Heroku's router takes 200 characters as well). */
    static final int MAX_LENGTH = 200;

    private RequestId() {
    }

    /**
     * The identifier of a request with {@code headers}.
     *
     * @param trusted whether the client is a trusted proxy; asked only when the request carries the header
     */
    static String of(Headers headers, java.util.function.BooleanSupplier trusted) {
        if (headers.contains(NAME)) {
            var values = headers.get(NAME);
            if (values.valueCount() == 1 && isWellFormed(values.get()) && trusted.getAsBoolean()) {
                return values.get();
            }
        }
        return generate();
    }

    /** A new identifier: a random version 4 UUID, e.g. {@code 8c6f1d2e-5b7a-4c3d-9e1f-2a3b4c5d6e7f}. */
    static String generate() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        long high = (random.nextLong() & ~0xF000L) | 0x4000L; // version 4
        long low = (random.nextLong() & ~(0xC000L << 48)) | (0x8000L << 48); // the IETF variant
        return new UUID(high, low).toString();
    }

    /**
     * Whether {@code value} is an identifier a log line can hold as it is: 1 to {@value #MAX_LENGTH} characters, each
     * a letter, a digit or one of {@code - _ . : + / = @} (UUIDs, ULIDs, base64, W3C trace ids and what load
     * balancers send); no space, quote, comma or control character.
     */
    static boolean isWellFormed(@Nullable String value) {
        if (value == null || value.isEmpty() || value.length() > MAX_LENGTH) {
            return false;
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || c == '-' || c == '_' || c == '.' || c == ':' || c == '+' || c == '/' || c == '=' || c == '@';
            if (!ok) {
                return false;
            }
        }
        return true;
    }
}
