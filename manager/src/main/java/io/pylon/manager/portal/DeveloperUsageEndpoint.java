package io.pylon.manager.portal;

import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.pylon.core.http.Json;
import io.pylon.core.http.Routes;
import io.pylon.manager.api.ApiException;
import io.pylon.manager.api.Principal;
import io.pylon.manager.api.Secured;
import io.pylon.manager.usage.UsageQuery;
import io.pylon.manager.usage.UsageStore;

import java.util.Map;

/**
 * {@code GET /apiops/portal/applications/{id}/usage} (role {@code portal}, for the session's developer): the
 * requests, errors and latency of one of their applications per minute and per API. Another developer's
 * application answers 404, like one that does not exist. Stateless.
 */
final class DeveloperUsageEndpoint {
    private final DeveloperAccess access;
    private final ApplicationStore applications;
    private final UsageQuery usage;

    DeveloperUsageEndpoint(DeveloperAccess access, ApplicationStore applications, UsageQuery usage) {
        this.access = access;
        this.applications = applications;
        this.usage = usage;
    }

    void register(Routes routes, Secured secured) {
        routes.get("/apiops/portal/applications/{id}/usage", secured.portal(this::usage));
    }

    private void usage(ServerRequest req, ServerResponse res, Principal portal) {
        DeveloperAccess.Acting acting = access.require(req);
        String id = req.path().pathParameters().get("id");
        ApplicationStore.Application app = applications.application(id)
                .filter(a -> a.developerId().equals(acting.developer().id()))
                .orElseThrow(() -> ApiException.notFound("No application '" + DeveloperEndpoints.printable(id) + "'."));
        UsageQuery.Window window = usage.window(req);
        Map<String, Object> answer = usage.answer(window, null, app.id(), UsageStore.GroupBy.PROXY);
        answer.put("application", app.id());
        Json.send(res, answer);
    }
}
