package io.pylon.manager.auth;

import io.pylon.manager.api.ApiException;
import io.pylon.manager.api.Role;
import io.pylon.manager.audit.AuditLog;
import org.jspecify.annotations.Nullable;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Accounts: login with brute-force protection, and the administration of users. Every change is audited and drops
 * the account's cached token checks so that it takes effect on the next request.
 *
 * <p>Brute-force protection has three layers: the {@link SignInThrottle} (per source address, and per account and
 * source address, in memory, answered 429 before any hashing), the account-wide count in the database with a lock
 * past {@code maxFailures} that blocks password sign-in only (the account's tokens keep working), and the
 * {@link HashingPool} that bounds what password checks may cost at all.
 */
public final class Accounts {
    public static final int MIN_PASSWORD = 12;
    public static final int MAX_PASSWORD = 1024;
    private static final Pattern USERNAME = Pattern.compile("[a-z0-9][a-z0-9._@-]{0,63}");

    private final UserRepository users;
    private final TokenService tokens;
    private final PasswordHasher hasher;
    private final AuditLog audit;
    private final SignInThrottle throttle;
    private final Clock clock;
    private final int maxFailures;
    private final Duration lockDuration;

    public Accounts(UserRepository users, TokenService tokens, PasswordHasher hasher, AuditLog audit,
                    SignInThrottle throttle, Clock clock, int maxFailures, Duration lockDuration) {
        this.users = users;
        this.tokens = tokens;
        this.hasher = hasher;
        this.audit = audit;
        this.throttle = throttle;
        this.clock = clock;
        this.maxFailures = maxFailures;
        this.lockDuration = lockDuration;
    }

    /** Usernames are case-insensitive: stored and compared in lower case. */
    public static String normalise(String username) {
        return username.strip().toLowerCase(Locale.ROOT);
    }

    /**
     * The account, if the password is right and the account enabled and not locked. Every failure looks the same to
     * the caller and costs one password verification, also for an unknown user. A throttled source, or a full
     * hashing pool, is refused with a 429 {@link ApiException} before any verification.
     */
    public Optional<User> login(String username, String password, String source) {
        String typed = normalise(username);
        boolean valid = USERNAME.matcher(typed).matches();
        // junk names share one throttle key: they cannot be accounts, and must not take memory per name
        String account = valid ? typed : "-";
        throttle.check(account, source);
        User user = valid ? users.find(typed).orElse(null) : null;
        boolean matches = hasher.verify(password, user == null ? null : user.passwordHash());
        if (!matches) {
            throttle.recordFailure(account, source);
        }
        if (user == null) {
            // the typed name is not recorded: a mistyped password in the username field must not land in the log
            audit.record("-", "login.failed", "unknown user", source, "unknown-user");
            return Optional.empty();
        }
        String name = user.username();
        Instant now = clock.instant();
        if (!user.enabled()) {
            audit.record(name, "login.failed", "user:" + name, source, "disabled");
            return Optional.empty();
        }
        if (user.lockedAt(now)) {
            audit.record(name, "login.failed", "user:" + name, source, "locked");
            return Optional.empty();
        }
        if (!matches) {
            countFailure(name, source, now);
            return Optional.empty();
        }
        throttle.recordSuccess(account, source);
        if (user.failedAttempts() != 0) {
            users.resetFailures(name);
        }
        return Optional.of(user);
    }

    private void countFailure(String name, String source, Instant now) {
        UserRepository.Failure counted = users.recordFailure(name, now, maxFailures, now.plus(lockDuration));
        // a failure that raced with the lock is not counted: it is one of the attempts made during the lock
        audit.record(name, "login.failed", "user:" + name, source,
                counted == UserRepository.Failure.NOT_COUNTED ? "locked" : "bad-password");
        if (counted == UserRepository.Failure.LOCKED) {
            audit.record(name, "account.locked", "user:" + name, source, "locked-" + lockDuration.toSeconds() + "s");
        }
    }

    public Optional<User> find(String username) {
        return users.find(normalise(username));
    }

    public User require(String username) {
        return find(username).orElseThrow(() -> ApiException.notFound("No user named '" + normalise(username) + "'."));
    }

    public List<User> list() {
        return users.list();
    }

    public User create(String actor, String username, @Nullable String password, Role role, String source) {
        String name = validUsername(username);
        String valid = validPassword(password);
        if (!users.insert(name, hasher.hash(valid), role, clock.instant())) {
            throw ApiException.conflict("A user named '" + name + "' already exists.");
        }
        audit.record(actor, "user.created", "user:" + name, source, "role=" + role.wireName());
        return users.find(name).orElseThrow();
    }

    /** Creates the first administrator when there is no account at all; false when accounts exist. */
    public boolean createFirstAdmin(String username, String password) {
        if (users.count() > 0) {
            return false;
        }
        String name = validUsername(username);
        if (!users.insert(name, hasher.hash(password), Role.ADMIN, clock.instant())) {
            return false;
        }
        audit.record("system", "user.created", "user:" + name, null, "first-admin");
        return true;
    }

    public User changeRole(String actor, String username, Role role, String source) {
        User user = require(username);
        if (user.role() == Role.ADMIN && role != Role.ADMIN) {
            keepAnAdmin(user);
        }
        users.updateRole(user.username(), role, clock.instant());
        tokens.accountChanged(user.username());
        audit.record(actor, "user.role-changed", "user:" + user.username(), source, "role=" + role.wireName());
        return require(user.username());
    }

    /** Disabling revokes every token of the account: re-enabling does not bring them back. */
    public User setEnabled(String actor, String username, boolean enabled, String source) {
        User user = require(username);
        if (!enabled && user.role() == Role.ADMIN) {
            keepAnAdmin(user);
        }
        users.updateEnabled(user.username(), enabled, clock.instant());
        if (!enabled) {
            tokens.revokeAll(user.username());
        }
        tokens.accountChanged(user.username());
        audit.record(actor, enabled ? "user.enabled" : "user.disabled", "user:" + user.username(), source, "success");
        return require(user.username());
    }

    public User unlock(String actor, String username, String source) {
        User user = require(username);
        users.unlock(user.username(), clock.instant());
        tokens.accountChanged(user.username());
        audit.record(actor, "user.unlocked", "user:" + user.username(), source, "success");
        return require(user.username());
    }

    /** A new password revokes every token of the account (as a changed password ends sessions elsewhere). */
    public void resetPassword(String actor, String username, @Nullable String password, String source) {
        User user = require(username);
        String valid = validPassword(password);
        users.updatePassword(user.username(), hasher.hash(valid), clock.instant());
        tokens.revokeAll(user.username());
        audit.record(actor, "user.password-reset", "user:" + user.username(), source, "success");
    }

    public void delete(String actor, String username, String source) {
        User user = require(username);
        if (user.role() == Role.ADMIN) {
            keepAnAdmin(user);
        }
        users.delete(user.username());
        tokens.accountChanged(user.username());
        audit.record(actor, "user.deleted", "user:" + user.username(), source, "success");
    }

    private void keepAnAdmin(User user) {
        if (user.enabled() && users.countOtherEnabledAdmins(user.username()) == 0) {
            throw ApiException.conflict("'" + user.username() + "' is the last enabled admin; create or enable "
                    + "another admin first.");
        }
    }

    private static String validUsername(String username) {
        if (username == null || username.isBlank()) {
            throw ApiException.badRequest("Missing username.");
        }
        String name = normalise(username);
        if (!USERNAME.matcher(name).matches()) {
            throw ApiException.badRequest("A username is 1 to 64 characters: letters, digits, '.', '_', '@' or '-', "
                    + "starting with a letter or digit.");
        }
        return name;
    }

    private static String validPassword(@Nullable String password) {
        if (password == null || password.isEmpty()) {
            throw ApiException.badRequest("Missing password.");
        }
        int length = password.codePointCount(0, password.length());
        if (length < MIN_PASSWORD || length > MAX_PASSWORD) {
            throw ApiException.badRequest("A password has " + MIN_PASSWORD + " to " + MAX_PASSWORD + " characters.");
        }
        return password;
    }
}
