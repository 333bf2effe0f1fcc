package io.pylon.manager.auth;

import io.pylon.core.config.Setting;
import io.pylon.core.config.SettingType;

import java.util.List;

/** The Argon2id cost of new password hashes ({@link PasswordHasher}). */
public final class PasswordSettings {
    private PasswordSettings() {
    }

    public static final Setting<Integer> ARGON2_MEMORY = Setting.of("pylon.manager.password.argon2-memory",
            "Argon2id memory cost in KiB for new password hashes (OWASP: 19456 = 19 MiB).", 19456,
            SettingType.intRange(1024, 4 * 1024 * 1024));

    public static final Setting<Integer> ARGON2_ITERATIONS = Setting.of("pylon.manager.password.argon2-iterations",
            "Argon2id iterations for new password hashes (OWASP: 2).", 2, SettingType.intRange(1, 100));

    public static final Setting<Integer> ARGON2_PARALLELISM = Setting.of("pylon.manager.password.argon2-parallelism",
            "Argon2id parallelism for new password hashes (OWASP: 1).", 1, SettingType.intRange(1, 64));

    public static List<Setting<?>> all() {
        return List.of(ARGON2_MEMORY, ARGON2_ITERATIONS, ARGON2_PARALLELISM);
    }
}
