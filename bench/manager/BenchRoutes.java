import io.pylon.core.http.Json;
import io.pylon.core.server.ModuleContext;
import io.pylon.manager.ManagementApi;
import io.pylon.manager.ManagerExtension;
import io.pylon.manager.api.Role;
import io.pylon.manager.environments.Environment;

import java.util.Optional;

/**
 * Benchmark-only routes (loaded through the ManagerExtension SPI by run.sh, never shipped): the same environment
 * read as GET /apiops/environments/{name}, once behind the Bearer check and once without it, so that the difference
 * in requests/s is the Bearer check alone.
 */
public final class BenchRoutes implements ManagerExtension {
    @Override
    public void start(ModuleContext context, ManagementApi api) {
        context.routes().get("/bench/open/environments/{name}", (req, res) ->
                send(res, api.environments().find(req.path().pathParameters().get("name")), false));
        context.routes().get("/bench/bearer/environments/{name}", (req, res) -> {
            var principal = api.auth().require(req, res, Role.VIEWER);
            if (principal.isPresent()) {
                send(res, api.environments().find(req.path().pathParameters().get("name")), principal.get().isAdmin());
            }
        });
    }

    private static void send(io.helidon.webserver.http.ServerResponse res, Optional<Environment> environment, boolean withId) {
        if (environment.isEmpty()) {
            res.status(404).send();
            return;
        }
        Json.send(res, environment.get().toJson(withId));
    }
}
