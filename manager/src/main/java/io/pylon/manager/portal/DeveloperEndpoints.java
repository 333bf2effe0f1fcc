package io.pylon.manager.portal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.pylon.core.http.Json;
import io.pylon.core.http.Routes;
import io.pylon.manager.api.ApiException;
import io.pylon.manager.api.Principal;
import io.pylon.manager.api.RequestBodies;
import io.pylon.manager.api.Secured;
import io.pylon.manager.api.SourceAddress;
import io.pylon.manager.audit.AuditLog;
import io.pylon.manager.auth.Accounts;
import io.pylon.manager.auth.PasswordHasher;
import io.pylon.manager.auth.SignInThrottle;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * What the Portal does for developers, callable only with the Portal's own credential (role {@code portal}):
 * sign-up, sign-in and sign-out, and, for the signed-in developer only, applications, subscriptions and keys. An id
 * that is not the session developer's answers 404, the same as one that does not exist.
 */
public final class DeveloperEndpoints {
    private static final Pattern EMAIL = Pattern.compile("[^@\\s\\p{Cntrl}]{1,64}@[A-Za-z0-9.-]{1,189}\\.[A-Za-z]{2,63}");
    private static final Pattern APP_NAME = Pattern.compile("[^\\p{Cntrl}]{1,100}");
    private static final int MAX_FAILURES = 5;
    private static final Duration LOCK = Duration.ofMinutes(15);
    /** An id no developer has (ids are UUIDs): failures of unknown addresses are recorded on it, changing nothing. */
    private static final String NO_DEVELOPER = "-";
    /** Applications one developer may hold. */
    static final int MAX_APPLICATIONS = 50;
    /** Live keys one application may hold. */
    static final int MAX_KEYS = 10;

    private final DeveloperStore developers;
    private final ApplicationStore applications;
    private final DeveloperAccess access;
    private final KeySetWatch keys;
    private final PasswordHasher hasher;
    private final AuditLog audit;
    private final Clock clock;
    private final boolean autoApprove;
    private final Duration sessionLifetime;
    private final SignInThrottle throttle;

    public DeveloperEndpoints(DeveloperStore developers, ApplicationStore applications, KeySetWatch keys,
                              PasswordHasher hasher, AuditLog audit, Clock clock, boolean autoApprove,
                              Duration sessionLifetime, SignInThrottle throttle) {
        this.developers = developers;
        this.applications = applications;
        this.access = new DeveloperAccess(developers, clock);
        this.keys = keys;
        this.hasher = hasher;
        this.audit = audit;
        this.clock = clock;
        this.autoApprove = autoApprove;
        this.sessionLifetime = sessionLifetime;
        this.throttle = throttle;
    }

    public void register(Routes routes, Secured secured) {
        routes.post("/apiops/portal/developers", secured.portal(this::signUp));
        routes.post("/apiops/portal/sessions", secured.portal(this::signIn));
        routes.get("/apiops/portal/session", secured.portal(this::session));
        routes.delete("/apiops/portal/session", secured.portal(this::signOut));
        routes.get("/apiops/portal/applications", secured.portal(this::list));
        routes.post("/apiops/portal/applications", secured.portal(this::create));
        routes.post("/apiops/portal/applications/{id}/subscriptions", secured.portal(this::subscribe));
        routes.post("/apiops/portal/applications/{id}/keys", secured.portal(this::issueKey));
        routes.delete("/apiops/portal/applications/{id}/keys/{key}", secured.portal(this::revokeKey));
        routes.post("/apiops/portal/applications/{id}/keys/{key}/rotate", secured.portal(this::rotateKey));
    }

    private record Credentials(String email, String password) {
    }

    private static Credentials credentials(ServerRequest req) {
        ObjectNode body = RequestBodies.jsonObject(req);
        RequestBodies.onlyFields(body, Set.of("email", "password"));
        String email = RequestBodies.requiredText(body, "email").strip().toLowerCase(Locale.ROOT);
        if (email.length() > 254 || !EMAIL.matcher(email).matches()) {
            throw ApiException.badField("email", "The field 'email' must be an e-mail address (at most 254 characters).");
        }
        String password = RequestBodies.requiredText(body, "password");
        int length = password.codePointCount(0, password.length());
        if (length < Accounts.MIN_PASSWORD || length > Accounts.MAX_PASSWORD) {
            throw ApiException.badField("password", "A password has " + Accounts.MIN_PASSWORD + " to "
                    + Accounts.MAX_PASSWORD + " characters.");
        }
        return new Credentials(email, password);
    }

    // the answer is the same whether the address was new or taken, so sign-up does not tell who has an account
    private void signUp(ServerRequest req, ServerResponse res, Principal portal) {
        Credentials given = credentials(req);
        Instant now = clock.instant();
        String hash = hasher.hash(given.password());
        String status = autoApprove ? "active" : "pending";
        String id = UUID.randomUUID().toString();
        boolean created = developers.insert(new Developer(id, given.email(), hash, status, 0, null, now));
        audit.record(portal.username(), "developer.signed-up", created ? "developer:" + id : "existing address",
                SourceAddress.of(req), created ? status : "duplicate");
        Json.send(res, Status.ACCEPTED_202, Map.of("message", autoApprove
                ? "If this address was new, its account is ready: sign in."
                : "If this address was new, its account waits for an administrator's approval."));
    }

    // the same throttle as Manager accounts, per browser address (the Portal forwards it) and per e-mail and address:
    // a guessing client is answered 429 before any hashing, whether the address exists or not
    private void signIn(ServerRequest req, ServerResponse res, Principal portal) {
        Credentials given = credentials(req);
        String source = DeveloperAccess.clientAddress(req);
        throttle.check(given.email(), source);
        Developer developer = developers.byEmail(given.email()).orElse(null);
        boolean matches = hasher.verify(given.password(), developer == null ? null : developer.passwordHash());
        Instant now = clock.instant();
        if (developer == null || developer.lockedAt(now) || !matches) {
            throttle.recordFailure(given.email(), source);
            // the same statement for an unknown address (on no row), so the answer takes as long either way
            developers.recordFailure(developer == null || developer.lockedAt(now) ? NO_DEVELOPER : developer.id(),
                    MAX_FAILURES, now, now.plus(LOCK));
            audit.record(portal.username(), "developer.sign-in", developer == null ? "unknown address"
                    : "developer:" + developer.id(), source, "failed");
            throw new ApiException(Status.UNAUTHORIZED_401, "invalid_credentials",
                    "The e-mail address or the password is wrong, or the account is locked for a while.");
        }
        throttle.recordSuccess(given.email(), source);
        developers.resetFailures(developer.id());
        if (!developer.status().equals("active")) {
            throw new ApiException(Status.FORBIDDEN_403, "account_" + developer.status(), developer.status()
                    .equals("pending") ? "The account waits for an administrator's approval." : "The account is disabled.");
        }
        String token = "pylon_ds_" + ApiKeys.random(32);
        String csrf = ApiKeys.random(24);
        developers.insertSession(ApiKeys.sha256(token), developer.id(), csrf, now.plus(sessionLifetime));
        audit.record(portal.username(), "developer.sign-in", "developer:" + developer.id(), source, "success");
        Json.send(res, Status.CREATED_201, Map.of("session", token, "csrf", csrf, "expiresIn",
                sessionLifetime.toSeconds(), "developer", developer(developer)));
    }

    private void session(ServerRequest req, ServerResponse res, Principal portal) {
        DeveloperAccess.Acting acting = access.require(req);
        Json.send(res, Map.of("developer", developer(acting.developer()), "csrf", acting.csrf()));
    }

    private void signOut(ServerRequest req, ServerResponse res, Principal portal) {
        DeveloperAccess.Acting acting = access.require(req);
        developers.deleteSession(acting.sessionHash());
        res.status(Status.NO_CONTENT_204).send();
    }

    private static Map<String, Object> developer(Developer d) {
        return Map.of("id", d.id(), "email", d.email(), "status", d.status());
    }

    private void list(ServerRequest req, ServerResponse res, Principal portal) {
        DeveloperAccess.Acting acting = access.require(req);
        Json.send(res, Map.of("applications", applications.applications(acting.developer().id()).stream()
                .map(this::application).toList()));
    }

    private Map<String, Object> application(ApplicationStore.Application a) {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("id", a.id());
        map.put("name", a.name());
        map.put("createdAt", a.createdAt().toString());
        map.put("subscriptions", applications.subscriptions(a.id()).stream().map(s -> s.plan() == null
                ? Map.of("id", s.id(), "proxy", s.proxy(), "status", s.status())
                : Map.of("id", s.id(), "proxy", s.proxy(), "status", s.status(), "plan", s.plan())).toList());
        map.put("keys", applications.keys(a.id()).stream().map(k -> {
            Map<String, Object> key = new LinkedHashMap<>();
            key.put("id", k.id());
            key.put("prefix", k.prefix());
            key.put("createdAt", k.createdAt().toString());
            key.put("revokedAt", k.revokedAt() == null ? null : k.revokedAt().toString());
            return key;
        }).toList());
        return map;
    }

    private void create(ServerRequest req, ServerResponse res, Principal portal) {
        DeveloperAccess.Acting acting = access.require(req);
        ObjectNode body = RequestBodies.jsonObject(req);
        RequestBodies.onlyFields(body, Set.of("name"));
        String name = RequestBodies.requiredText(body, "name").strip();
        if (!APP_NAME.matcher(name).matches()) {
            throw ApiException.badField("name", "An application's name has 1 to 100 characters, no control characters.");
        }
        String developerId = acting.developer().id();
        if (applications.countApplications(developerId) >= MAX_APPLICATIONS) {
            throw ApiException.conflict("A developer holds at most " + MAX_APPLICATIONS + " applications.");
        }
        ApplicationStore.Application created = new ApplicationStore.Application(UUID.randomUUID().toString(),
                developerId, name, clock.instant());
        applications.insertApplication(created);
        audit.record(portal.username(), "application.created", "application:" + created.id(), SourceAddress.of(req),
                "success");
        Json.send(res, Status.CREATED_201, application(created));
    }

    /** The application, if it is the acting developer's; otherwise 404 as if it did not exist. */
    private ApplicationStore.Application own(ServerRequest req, DeveloperAccess.Acting acting) {
        String id = req.path().pathParameters().get("id");
        return applications.application(id)
                .filter(a -> a.developerId().equals(acting.developer().id()))
                .orElseThrow(() -> ApiException.notFound("No application '" + printable(id) + "'."));
    }

    private void subscribe(ServerRequest req, ServerResponse res, Principal portal) {
        DeveloperAccess.Acting acting = access.require(req);
        ApplicationStore.Application app = own(req, acting);
        ObjectNode body = RequestBodies.jsonObject(req);
        RequestBodies.onlyFields(body, Set.of("proxy"));
        String proxy = RequestBodies.requiredText(body, "proxy");
        Boolean autoApprove = applications.publication(proxy).orElseThrow(() ->
                ApiException.notFound("No published API '" + printable(proxy) + "'."));
        String status = autoApprove ? "active" : "pending";
        String id = UUID.randomUUID().toString();
        if (!applications.insertSubscription(id, app.id(), proxy, status, clock.instant())) {
            throw ApiException.conflict("The application already subscribes to '" + proxy + "'.");
        }
        keys.changed();
        audit.record(portal.username(), "subscription.created", "subscription:" + id, SourceAddress.of(req), status);
        Json.send(res, Status.CREATED_201, Map.of("id", id, "proxy", proxy, "status", status));
    }

    // the key is in this answer only; the database keeps its SHA-256 and the first characters for display
    private void issueKey(ServerRequest req, ServerResponse res, Principal portal) {
        DeveloperAccess.Acting acting = access.require(req);
        ApplicationStore.Application app = own(req, acting);
        long live = applications.keys(app.id()).stream().filter(k -> k.revokedAt() == null).count();
        if (live >= MAX_KEYS) {
            throw ApiException.conflict("An application holds at most " + MAX_KEYS + " live keys; revoke one first.");
        }
        String key = ApiKeys.newKey();
        String id = UUID.randomUUID().toString();
        applications.insertKey(id, app.id(), ApiKeys.sha256(key), ApiKeys.display(key), clock.instant());
        keys.changed();
        audit.record(portal.username(), "api-key.issued", "api-key:" + id, SourceAddress.of(req), "success");
        Json.send(res, Status.CREATED_201, Map.of("id", id, "key", key, "prefix", ApiKeys.display(key)));
    }

    private void revokeKey(ServerRequest req, ServerResponse res, Principal portal) {
        DeveloperAccess.Acting acting = access.require(req);
        ApplicationStore.Application app = own(req, acting);
        String keyId = req.path().pathParameters().get("key");
        if (!applications.revokeKey(app.id(), keyId, clock.instant())) {
            throw ApiException.notFound("No live key '" + printable(keyId) + "' in this application.");
        }
        keys.changed();
        audit.record(portal.username(), "api-key.revoked", "api-key:" + keyId, SourceAddress.of(req), "success");
        res.status(Status.NO_CONTENT_204).send();
    }

    // a new key in place of a live one, in one transaction: the old key stops on the Workers with the new one's start
    private void rotateKey(ServerRequest req, ServerResponse res, Principal portal) {
        DeveloperAccess.Acting acting = access.require(req);
        ApplicationStore.Application app = own(req, acting);
        String oldId = req.path().pathParameters().get("key");
        String key = ApiKeys.newKey();
        String id = UUID.randomUUID().toString();
        if (!applications.rotateKey(app.id(), oldId, id, ApiKeys.sha256(key), ApiKeys.display(key), clock.instant())) {
            throw ApiException.notFound("No live key '" + printable(oldId) + "' in this application.");
        }
        keys.changed();
        audit.record(portal.username(), "api-key.rotated", "api-key:" + oldId + " -> api-key:" + id,
                SourceAddress.of(req), "success");
        Json.send(res, Status.CREATED_201, Map.of("id", id, "key", key, "prefix", ApiKeys.display(key),
                "replaced", oldId));
    }

    static String printable(String text) {
        String clean = text.replaceAll("\\p{Cntrl}", "?");
        return clean.length() > 80 ? clean.substring(0, 80) + "..." : clean;
    }
}
