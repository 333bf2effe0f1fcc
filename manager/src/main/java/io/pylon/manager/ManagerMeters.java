package io.pylon.manager;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * The Manager's own meters, derived from its audit events (one place that sees every sign-in, token and lock):
 * {@code pylon_manager_audit_events_total{action}}, {@code pylon_manager_tokens_issued_total},
 * {@code pylon_manager_signin_failures_total{reason}} (unknown-user, bad-password, locked, disabled) and
 * {@code pylon_manager_account_locks_total}. Actions and outcomes are constants of the code, never user input, so
 * the label sets are bounded. Thread-safe: the registry is.
 */
final class ManagerMeters {
    private final MeterRegistry registry;
    private final Counter tokensIssued;
    private final Counter locks;

    ManagerMeters(MeterRegistry registry) {
        this.registry = registry;
        this.tokensIssued = Counter.builder("pylon.manager.tokens.issued")
                .description("Access tokens issued by the token endpoint").register(registry);
        this.locks = Counter.builder("pylon.manager.account.locks")
                .description("Accounts whose password sign-in was locked after too many failures").register(registry);
        for (String reason : new String[]{"unknown-user", "bad-password", "locked", "disabled"}) {
            signInFailures(reason);
        }
    }

    void audited(String action, String outcome) {
        Counter.builder("pylon.manager.audit.events").tag("action", action)
                .description("Audit events recorded, by action").register(registry).increment();
        switch (action) {
            case "token.issued" -> tokensIssued.increment();
            case "account.locked" -> locks.increment();
            case "login.failed" -> signInFailures(outcome).increment();
            default -> {
            }
        }
    }

    private Counter signInFailures(String reason) {
        return Counter.builder("pylon.manager.signin.failures").tag("reason", reason)
                .description("Failed sign-ins, by reason").register(registry);
    }
}
