package io.pylon.integration.step;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.regex.Pattern;

/**
 * Secrets that flows name by reference ({@code hmacSecretRef: rates-hook}): one file per secret in a directory, the
 * file name being the reference, as Kubernetes mounts a Secret's keys. A secret is read when a step needs it and is
 * never logged, stored in history or answered. Stateless and thread-safe.
 */
public final class SecretStore {
    private static final Pattern REF = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,127}");
    private static final int MAX_BYTES = 64 * 1024;

    private final Path directory;

    public SecretStore(Path directory) {
        this.directory = directory;
    }

    /** The secret's bytes (a trailing newline removed). */
    public byte[] read(String ref) {
        if (!REF.matcher(ref).matches() || ref.contains("..")) {
            throw new StepFailure("secret reference '" + ref + "' is not a valid name", false, null);
        }
        Path file = directory.resolve(ref);
        try {
            if (Files.size(file) > MAX_BYTES) {
                throw new StepFailure("secret '" + ref + "' is larger than 64 KiB", false, null);
            }
            byte[] bytes = Files.readAllBytes(file);
            int n = bytes.length;
            while (n > 0 && (bytes[n - 1] == '\n' || bytes[n - 1] == '\r')) {
                n--;
            }
            return n == bytes.length ? bytes : java.util.Arrays.copyOf(bytes, n);
        } catch (NoSuchFileException e) {
            throw new StepFailure("secret '" + ref + "' not found in the secret store", false, null);
        } catch (IOException e) {
            throw new StepFailure("secret '" + ref + "' cannot be read", false, null);
        }
    }
}
