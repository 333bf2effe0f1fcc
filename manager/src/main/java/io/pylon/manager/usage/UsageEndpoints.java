package io.pylon.manager.usage;

import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.pylon.core.http.Json;
import io.pylon.core.http.Routes;
import io.pylon.manager.api.ApiException;
import io.pylon.manager.api.Principal;
import io.pylon.manager.api.Secured;

import java.util.Map;
import java.util.regex.Pattern;

/**
 * {@code GET /apiops/usage} (admin): requests, errors and latency per minute of one API ({@code proxy}) or of all,
 * with the applications (or APIs) that made them.
 */
public final class UsageEndpoints {
    static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]{1,64}");

    private final UsageQuery query;

    public UsageEndpoints(UsageQuery query) {
        this.query = query;
    }

    public void register(Routes routes, Secured secured) {
        routes.get("/apiops/usage", secured.admin(this::usage));
    }

    private void usage(ServerRequest req, ServerResponse res, Principal principal) {
        String proxy = req.query().first("proxy").orElse(null);
        if (proxy != null && !NAME.matcher(proxy).matches()) {
            throw ApiException.badField("proxy", "Parameter 'proxy' must be a proxy's name.");
        }
        UsageQuery.Window window = query.window(req);
        Map<String, Object> answer = query.answer(window, proxy, null,
                proxy == null ? UsageStore.GroupBy.PROXY : UsageStore.GroupBy.APPLICATION);
        if (proxy != null) {
            answer.put("proxy", proxy);
        }
        Json.send(res, answer);
    }
}
