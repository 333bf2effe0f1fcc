package io.pylon.manager.api;

import io.helidon.webserver.http.Handler;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.pylon.core.http.ErrorBody;

import java.util.Optional;

/** Wraps a management handler: the Bearer check with a minimum role first, refused requests answered as JSON. */
public final class Secured {
    private final BearerAuth auth;

    @FunctionalInterface
    public interface ApiHandler {
        void handle(ServerRequest req, ServerResponse res, Principal principal);
    }

    public Secured(BearerAuth auth) {
        this.auth = auth;
    }

    public Handler viewer(ApiHandler handler) {
        return handler(Role.VIEWER, handler);
    }

    /** Operators and admins: changes to API proxies and deployments. */
    public Handler operator(ApiHandler handler) {
        return handler(Role.OPERATOR, handler);
    }

    /** Only the Portal's credential: calls made for a signed-in developer. */
    public Handler portal(ApiHandler handler) {
        return handler(Role.PORTAL, handler);
    }

    public Handler admin(ApiHandler handler) {
        return handler(Role.ADMIN, handler);
    }

    private Handler handler(Role minimum, ApiHandler handler) {
        return (req, res) -> {
            Optional<Principal> principal = auth.require(req, res, minimum);
            if (principal.isEmpty()) {
                return;
            }
            try {
                handler.handle(req, res, principal.get());
            } catch (ApiException e) {
                e.send(res);
            }
        };
    }
}
