package io.pylon.manager.auth;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.pylon.core.http.Json;
import io.pylon.core.http.Routes;
import io.pylon.manager.api.ApiException;
import io.pylon.manager.api.Principal;
import io.pylon.manager.api.RequestBodies;
import io.pylon.manager.api.Role;
import io.pylon.manager.api.Secured;
import io.pylon.manager.api.SourceAddress;

import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.Set;

/** Account administration, admins only: create, list, read, change role, enable/disable, unlock, reset, delete. */
public final class UserEndpoints {
    private final Accounts accounts;
    private final Clock clock;

    public UserEndpoints(Accounts accounts, Clock clock) {
        this.accounts = accounts;
        this.clock = clock;
    }

    public void register(Routes routes, Secured secured) {
        routes.get("/apiops/users", secured.admin(this::list));
        routes.post("/apiops/users", secured.admin(this::create));
        routes.get("/apiops/users/{username}", secured.admin(this::read));
        routes.patch("/apiops/users/{username}", secured.admin(this::patch));
        routes.delete("/apiops/users/{username}", secured.admin(this::delete));
        routes.post("/apiops/users/{username}/unlock", secured.admin(this::unlock));
        routes.post("/apiops/users/{username}/password", secured.admin(this::password));
    }

    private void list(ServerRequest req, ServerResponse res, Principal principal) {
        Instant now = clock.instant();
        Json.send(res, Map.of("users", accounts.list().stream().map(u -> u.toJson(now)).toList()));
    }

    private void create(ServerRequest req, ServerResponse res, Principal principal) {
        ObjectNode body = RequestBodies.jsonObject(req);
        RequestBodies.onlyFields(body, Set.of("username", "password", "role"));
        String username = RequestBodies.requiredText(body, "username");
        String password = RequestBodies.text(body, "password");
        Role role = role(RequestBodies.requiredText(body, "role"));
        User user = accounts.create(principal.username(), username, password, role, SourceAddress.of(req));
        Json.send(res, Status.CREATED_201, user.toJson(clock.instant()));
    }

    private void read(ServerRequest req, ServerResponse res, Principal principal) {
        Json.send(res, accounts.require(username(req)).toJson(clock.instant()));
    }

    private void patch(ServerRequest req, ServerResponse res, Principal principal) {
        ObjectNode body = RequestBodies.jsonObject(req);
        RequestBodies.onlyFields(body, Set.of("role", "enabled"));
        String username = username(req);
        accounts.require(username);
        String roleText = RequestBodies.text(body, "role");
        Role role = roleText == null ? null : role(roleText);
        JsonNode enabled = body.get("enabled");
        if (enabled != null && !enabled.isBoolean()) {
            throw ApiException.badRequest("The field 'enabled' must be true or false.");
        }
        String source = SourceAddress.of(req);
        if (role != null) {
            accounts.changeRole(principal.username(), username, role, source);
        }
        if (enabled != null) {
            accounts.setEnabled(principal.username(), username, enabled.booleanValue(), source);
        }
        Json.send(res, accounts.require(username).toJson(clock.instant()));
    }

    private void delete(ServerRequest req, ServerResponse res, Principal principal) {
        accounts.delete(principal.username(), username(req), SourceAddress.of(req));
        res.status(Status.NO_CONTENT_204).send();
    }

    private void unlock(ServerRequest req, ServerResponse res, Principal principal) {
        User user = accounts.unlock(principal.username(), username(req), SourceAddress.of(req));
        Json.send(res, user.toJson(clock.instant()));
    }

    private void password(ServerRequest req, ServerResponse res, Principal principal) {
        ObjectNode body = RequestBodies.jsonObject(req);
        RequestBodies.onlyFields(body, Set.of("password"));
        accounts.resetPassword(principal.username(), username(req), RequestBodies.text(body, "password"),
                SourceAddress.of(req));
        res.status(Status.NO_CONTENT_204).send();
    }

    private static String username(ServerRequest req) {
        return req.path().pathParameters().get("username");
    }

    private static Role role(String text) {
        return Role.parse(text).orElseThrow(() -> ApiException.badRequest("The field 'role' must be admin, operator or viewer."));
    }
}
