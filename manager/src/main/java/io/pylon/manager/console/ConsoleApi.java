package io.pylon.manager.console;

import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.pylon.core.http.ErrorBody;
import io.pylon.core.http.Json;
import io.pylon.core.http.Routes;
import io.pylon.manager.api.BearerAuth;
import io.pylon.manager.api.Principal;
import io.pylon.manager.api.Role;
import io.pylon.manager.api.SourceAddress;
import io.pylon.manager.audit.AuditLog;
import io.pylon.manager.environments.Environment;
import io.pylon.manager.environments.EnvironmentStore;

import java.io.UncheckedIOException;
import java.util.Optional;

/**
 * The Manager-side diagnostics API behind the Server Management screen, for any signed-in user:
 * <ul>
 * <li>{@code GET /apiops/environments/{name}/modules}: health, version and check time of the five modules;</li>
 * <li>{@code GET /apiops/environments/{name}/diagnostics/{module}/{diagnostics}?pod=&internal=}: a Worker or Cache
 * diagnostics call, forwarded with the environment ID added by the Manager. {@code heapdump} and {@code env} need
 * the admin role and, like {@code all}, are recorded in the audit log. {@code hotthreads} and {@code histogram} are
 * open to viewers; {@code jfr} and the changes ({@code PUT}/{@code DELETE} loggers, {@code POST}/{@code DELETE} jfr)
 * need the admin role and are audited with their parameters. {@code postmortem} is open to viewers; reading one
 * capture ({@code ?id=}) is audited with its id, like {@code all}.</li>
 * </ul>
 */
public final class ConsoleApi {
    private final BearerAuth auth;
    private final EnvironmentStore environments;
    private final AuditLog audit;
    private final ModuleProbe probe;
    private final DiagnosticsProxy proxy;

    public ConsoleApi(BearerAuth auth, EnvironmentStore environments, AuditLog audit, String segment,
                      ConsoleTimeouts timeouts) {
        this.auth = auth;
        this.environments = environments;
        this.audit = audit;
        Upstream upstream = new Upstream(timeouts.connect());
        this.probe = new ModuleProbe(upstream, segment, timeouts.moduleCheck());
        this.proxy = new DiagnosticsProxy(upstream, segment, timeouts.diagnostics(), timeouts.heapDump());
    }

    public void register(Routes routes) {
        routes.get("/apiops/environments/{name}/modules", this::modules);
        routes.get("/apiops/environments/{name}/diagnostics/{module}/{diagnostics}", this::diagnostics);
        routes.put("/apiops/environments/{name}/diagnostics/{module}/{diagnostics}", this::diagnostics);
        routes.delete("/apiops/environments/{name}/diagnostics/{module}/{diagnostics}", this::diagnostics);
        routes.post("/apiops/environments/{name}/diagnostics/{module}/{diagnostics}", this::diagnostics);
    }

    private void modules(ServerRequest req, ServerResponse res) {
        Optional<Principal> caller = auth.require(req, res, Role.VIEWER);
        if (caller.isEmpty()) {
            return;
        }
        try {
            Environment environment = environment(req);
            Json.send(res, probe.check(environment));
        } catch (ConsoleException e) {
            ErrorBody.send(res, e.status(), e.error(), e.getMessage());
        }
    }

    private void diagnostics(ServerRequest req, ServerResponse res) {
        DiagnosticTarget target;
        try {
            target = DiagnosticTarget.parse(req.path().pathParameters().get("module"),
                    req.path().pathParameters().get("diagnostics"),
                    req.query().first("pod").orElse(null), req.query().first("internal").orElse(null),
                    req.prologue().method().text(), parameters(req));
        } catch (ConsoleException e) {
            if (auth.require(req, res, Role.VIEWER).isPresent()) {
                ErrorBody.send(res, e.status(), e.error(), e.getMessage());
            }
            return;
        }
        Optional<Principal> caller = auth.require(req, res, target.adminOnly() ? Role.ADMIN : Role.VIEWER);
        if (caller.isEmpty()) {
            return;
        }
        String outcome = "failure";
        String environmentName = req.path().pathParameters().get("name");
        try {
            Environment environment = environment(req);
            outcome = proxy.forward(res, caller.get(), environment, target);
        } catch (ConsoleException e) {
            outcome = "failure (" + e.status().code() + " " + e.error() + ")";
            ErrorBody.send(res, e.status(), e.error(), e.getMessage());
        } catch (UncheckedIOException e) {
            outcome = "failure (broken off)";
        } finally {
            if (target.audited()) {
                audit.record(caller.get().username(), target.auditAction(),
                        target.auditTarget(environmentName), SourceAddress.of(req), outcome);
            }
        }
    }

    private static java.util.Map<String, String> parameters(ServerRequest req) {
        java.util.Map<String, String> parameters = new java.util.LinkedHashMap<>();
        for (String name : req.query().names()) {
            parameters.put(name, req.query().first(name).orElse(""));
        }
        return parameters;
    }

    private Environment environment(ServerRequest req) {
        String name = req.path().pathParameters().get("name");
        return environments.find(name).orElseThrow(() -> new ConsoleException(Status.NOT_FOUND_404,
                "environment_not_found", "There is no environment named '" + name + "'."));
    }
}
