package io.pylon.manager.auth.argon2;

import org.jspecify.annotations.Nullable;

import java.util.Base64;

/**
 * An Argon2id hash in the PHC string format, {@code $argon2id$v=19$m=19456,t=2,p=1$salt$hash}, with salt and hash in
 * standard Base64 written without padding (as password4j and the reference implementation write them) and read with
 * or without it. Only version 19 (0x13) is accepted.
 *
 * <p>Immutable once built; the arrays are not copied and must not be changed.
 */
public record Argon2idPhc(Argon2Cost cost, byte[] salt, byte[] hash) {
    private static final String PREFIX = "$argon2id$v=19$";
    /** Longer strings are not read at all: the salt and hash of a real hash take well under 200 characters. */
    private static final int MAX_LENGTH = 512;
    private static final int MIN_SALT_BYTES = 8;
    private static final int MIN_HASH_BYTES = 4;
    private static final int MAX_DIGITS = 10;

    public String format() {
        Base64.Encoder base64 = Base64.getEncoder().withoutPadding();
        return PREFIX + "m=" + cost.memoryKib() + ",t=" + cost.iterations() + ",p=" + cost.parallelism() + "$"
                + base64.encodeToString(salt) + "$" + base64.encodeToString(hash);
    }

    /**
     * The hash written in {@code phc}, or null when it is not a well-formed Argon2id version 19 PHC string with valid
     * parameters, a salt of at least 8 bytes and a hash of at least 4. Never throws.
     */
    public static @Nullable Argon2idPhc parse(@Nullable String phc) {
        if (phc == null || phc.length() > MAX_LENGTH || !phc.startsWith(PREFIX)) {
            return null;
        }
        String[] fields = phc.substring(PREFIX.length()).split("\\$", -1);
        if (fields.length != 3) {
            return null;
        }
        String[] parameters = fields[0].split(",", -1);
        if (parameters.length != 3) {
            return null;
        }
        int memory = parameter(parameters[0], "m=");
        int iterations = parameter(parameters[1], "t=");
        int parallelism = parameter(parameters[2], "p=");
        byte[] salt = base64(fields[1]);
        byte[] hash = base64(fields[2]);
        if (memory < 0 || iterations < 0 || parallelism < 0 || salt == null || hash == null
                || salt.length < MIN_SALT_BYTES || hash.length < MIN_HASH_BYTES) {
            return null;
        }
        try {
            return new Argon2idPhc(new Argon2Cost(memory, iterations, parallelism), salt, hash);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    // the decimal value after the name, or -1 when absent, not plain digits, or beyond an int
    private static int parameter(String field, String name) {
        if (!field.startsWith(name) || field.length() == name.length()
                || field.length() > name.length() + MAX_DIGITS) {
            return -1;
        }
        long value = 0;
        for (int i = name.length(); i < field.length(); i++) {
            char c = field.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            value = value * 10 + (c - '0');
        }
        return value > Integer.MAX_VALUE ? -1 : (int) value;
    }

    private static byte @Nullable [] base64(String text) {
        if (text.isEmpty()) {
            return null;
        }
        try {
            return Base64.getDecoder().decode(text);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
