package io.pylon.manager.portal;

import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.pylon.core.http.ErrorBody;
import io.pylon.core.http.Routes;
import io.pylon.manager.api.ApiException;
import io.pylon.manager.deployments.WorkerLongPolls;
import io.pylon.manager.environments.Environment;
import io.pylon.manager.environments.EnvironmentStore;

import java.time.Duration;

/**
 * {@code GET /apiops/gateway/keys}: a Worker's long-poll for the key set (hashes of live API keys and their
 * subscriptions' statuses). Proven like the bundle's poll, by the environment ID; answered at once when the version
 * differs from {@code If-None-Match}, else when it changes or {@code wait} ends (304). Bounded per replica.
 *
 * <p>Threading: called on many request threads at once (each parks a virtual thread while it waits); the only shared
 * state is the semaphore bounding the parked polls.
 */
public final class KeyPollEndpoint {
    public static final String PATH = "/apiops/gateway/keys";
    public static final int MAX_POLLS = 10_000;
    /** Which environment the poll's ID proved: the Worker admits that environment's Portal origin. */
    static final io.helidon.http.HeaderName ENVIRONMENT_NAME =
            io.helidon.http.HeaderNames.create("X-Pylon-Environment-Name");

    private final EnvironmentStore environments;
    private final KeySetWatch watch;
    private final WorkerLongPolls polls = new WorkerLongPolls(MAX_POLLS, "key long-polls");

    public KeyPollEndpoint(EnvironmentStore environments, KeySetWatch watch) {
        this.environments = environments;
        this.watch = watch;
    }

    public void register(Routes routes) {
        routes.get(PATH, this::poll);
    }

    /** Ends the parked polls and refuses new ones (503 stopping): the pod is stopping. */
    public void stop() {
        polls.stop();
    }

    private void poll(ServerRequest req, ServerResponse res) {
        try {
            Environment environment = WorkerLongPolls.authenticate(req, environments);
            Duration wait = WorkerLongPolls.waitOf(req);
            long known = known(req);
            KeySetWatch.Current current = polls.await(() -> watch.await(known, wait));
            res.header(HeaderNames.ETAG, "\"" + current.version() + "\"");
            res.header(ENVIRONMENT_NAME, environment.name());
            res.header(HeaderNames.CACHE_CONTROL, "no-store");
            if (current.version() == known) {
                res.status(Status.NOT_MODIFIED_304).send();
                return;
            }
            res.header(HeaderNames.CONTENT_TYPE, "application/json");
            res.send(current.json());
        } catch (ApiException e) {
            e.send(res);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            ErrorBody.send(res, Status.SERVICE_UNAVAILABLE_503, "stopping", "The Manager is stopping.");
        }
    }

    private static long known(ServerRequest req) {
        String etag = req.headers().first(HeaderNames.IF_NONE_MATCH).orElse("\"-1\"").strip();
        if (etag.length() >= 2 && etag.startsWith("\"") && etag.endsWith("\"")) {
            etag = etag.substring(1, etag.length() - 1);
        }
        try {
            return Long.parseLong(etag);
        } catch (NumberFormatException e) {
            throw ApiException.badRequest("Header 'If-None-Match' must be a key set version such as \"12\".");
        }
    }
}
