package io.pylon.integration.web;

import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import io.pylon.integration.store.FlowStore;

/**
 * Who may call: a management token (checked against the Manager) with the role an operation needs, or, to start a
 * run of a flow whose HTTP trigger is on, that flow's trigger key in {@code X-Trigger-Key}. Stateless over
 * thread-safe parts.
 */
final class Access {
    static final String TRIGGER_KEY = "X-Trigger-Key";
    /** Who called, when it was a trigger key rather than an account. */
    static final String BY_TRIGGER_KEY = "trigger key";
    private final ManagerTokens tokens;
    private final FlowStore flows;

    Access(ManagerTokens tokens, FlowStore flows) {
        this.tokens = tokens;
        this.flows = flows;
    }

    /** Requires a management token of at least {@code role}; answers the token's role. */
    ManagerTokens.Caller require(ServerRequest req, ManagerTokens.Role role) {
        String header = req.headers().first(HeaderNames.AUTHORIZATION).orElse(null);
        if (header == null || !header.regionMatches(true, 0, "Bearer ", 0, 7) || header.length() <= 7) {
            throw new ApiError(Status.UNAUTHORIZED_401, "unauthorized",
                    "A management token is needed: Authorization: Bearer <token>.");
        }
        ManagerTokens.Caller actual = tokens.check(header.substring(7).strip());
        if (actual.role().compareTo(role) < 0) {
            throw new ApiError(Status.FORBIDDEN_403, "insufficient_scope", "This needs the "
                    + role.name().toLowerCase(java.util.Locale.ROOT) + " role.");
        }
        return actual;
    }

    /** Requires an operator's (or admin's) token, or the flow's trigger key when its HTTP trigger is on; answers who called. */
    String requireTrigger(ServerRequest req, String flow, boolean httpTrigger) {
        String key = req.headers().first(HeaderNames.create(TRIGGER_KEY)).orElse(null);
        if (key != null && !req.headers().contains(HeaderNames.AUTHORIZATION)) {
            if (!httpTrigger || !flows.triggerKeyMatches(flow, key)) {
                throw new ApiError(Status.UNAUTHORIZED_401, "invalid_token",
                        "The trigger key is not this flow's, or the flow's HTTP trigger is off.");
            }
            return BY_TRIGGER_KEY;
        }
        return require(req, ManagerTokens.Role.OPERATOR).username();
    }
}
