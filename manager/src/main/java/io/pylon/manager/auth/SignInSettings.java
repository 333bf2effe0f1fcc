package io.pylon.manager.auth;

import io.pylon.core.config.Setting;
import io.pylon.core.config.SettingType;
import io.pylon.core.config.Settings;
import io.pylon.gateway.model.TrustedProxies;

import java.time.Duration;
import java.util.List;

/**
 * Settings of password sign-in under attack: the hashing pool and the per-source throttle. The account-wide lock
 * keeps its settings {@code pylon.manager.auth.max-failures} and {@code .lock-duration}.
 */
public final class SignInSettings {
    private SignInSettings() {
    }

    public static final Setting<Integer> HASH_THREADS = Setting.of("pylon.manager.signin.hash-threads",
            "Threads that compute Argon2id password hashes (each holds the Argon2 memory, 19 MiB by default, while it "
                    + "runs). Default: one less than the processors, at least 1, so that sign-ins never take every core, and at most 4, so that their "
                    + "memory fits the Manager's default heap.",
            null, SettingType.intRange(1, 256));

    public static final Setting<Integer> HASH_QUEUE = Setting.of("pylon.manager.signin.hash-queue",
            "Password checks that may wait for a hashing thread; beyond them a token request is answered 429 with "
                    + "Retry-After at once.", 8, SettingType.intRange(1, 10_000));

    public static final Setting<Integer> SOURCE_MAX_FAILURES = Setting.of("pylon.manager.signin.source-max-failures",
            "Failed sign-ins from one source address (any accounts) within pylon.manager.signin.failure-window after "
                    + "which that address gets 429 without a password check until the window ends.",
            30, SettingType.intRange(1, 1_000_000));

    public static final Setting<Integer> ACCOUNT_SOURCE_MAX_FAILURES = Setting.of(
            "pylon.manager.signin.account-source-max-failures",
            "Failed sign-ins to one account from one source address within pylon.manager.signin.failure-window after "
                    + "which that address gets 429 for that account until the window ends; other addresses may still "
                    + "sign in. A success resets it.", 5, SettingType.intRange(1, 1_000_000));

    public static final Setting<Duration> FAILURE_WINDOW = Setting.of("pylon.manager.signin.failure-window",
            "How long a pod remembers failed sign-ins per source address and per account and address, counted from "
                    + "the first failure.", Duration.ofMinutes(15), SettingType.DURATION_TYPE);

    public static final Setting<TrustedProxies> TRUSTED_PROXIES = Setting.of("pylon.manager.trusted-proxies",
            "Peers (CIDR blocks: the ingress or load balancer in front of the Manager) whose X-Forwarded-For names the "
                    + "caller's address, which sign-in throttling counts per and the audit log records. Unset: the "
                    + "connection's own address.", null, TrustedProxies.SETTING_TYPE);

    public static TrustedProxies trustedProxies(Settings settings) {
        TrustedProxies trusted = settings.find(TRUSTED_PROXIES);
        return trusted == null ? TrustedProxies.NONE : trusted;
    }

    public static int hashThreads(Settings settings) {
        Integer configured = settings.find(HASH_THREADS);
        return configured != null ? configured : HashingPool.defaultThreads(Runtime.getRuntime().availableProcessors());
    }

    public static List<Setting<?>> all() {
        return List.of(HASH_THREADS, HASH_QUEUE, SOURCE_MAX_FAILURES, ACCOUNT_SOURCE_MAX_FAILURES, FAILURE_WINDOW,
                TRUSTED_PROXIES);
    }
}
