package io.pylon.manager.portal;

import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.pylon.core.config.SettingType;
import io.pylon.core.http.ErrorBody;
import io.pylon.core.http.Routes;
import io.pylon.manager.api.ApiException;
import io.pylon.manager.deployments.GatewayPollEndpoint;
import io.pylon.manager.environments.Environment;
import io.pylon.manager.environments.EnvironmentStore;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.concurrent.Semaphore;

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
    private final Semaphore polls = new Semaphore(MAX_POLLS);

    public KeyPollEndpoint(EnvironmentStore environments, KeySetWatch watch) {
        this.environments = environments;
        this.watch = watch;
    }

    public void register(Routes routes) {
        routes.get(PATH, this::poll);
    }

    private void poll(ServerRequest req, ServerResponse res) {
        try {
            Environment environment = authenticate(req);
            Duration wait = wait(req);
            long known = known(req);
            if (!polls.tryAcquire()) {
                throw ApiException.retryLater(Status.SERVICE_UNAVAILABLE_503, "busy",
                        "This Manager holds " + MAX_POLLS + " key long-polls; poll again.", Duration.ofSeconds(1));
            }
            KeySetWatch.Current current;
            try {
                current = watch.await(known, wait);
            } finally {
                polls.release();
            }
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

    private Environment authenticate(ServerRequest req) {
        byte[] given = req.headers().first(GatewayPollEndpoint.ENVIRONMENT_ID).orElse("")
                .getBytes(StandardCharsets.UTF_8);
        Environment match = null;
        for (Environment environment : environments.list()) {
            String id = environment.environmentId();
            if (id != null && MessageDigest.isEqual(given, id.getBytes(StandardCharsets.UTF_8))) {
                match = environment;
            }
        }
        if (match == null) {
            throw new ApiException(Status.UNAUTHORIZED_401, "invalid_environment",
                    "Header 'X-Pylon-Environment-Id' must carry the ID of an environment of this Manager.");
        }
        return match;
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

    private static Duration wait(ServerRequest req) {
        Duration wait;
        try {
            wait = SettingType.DURATION_TYPE.parse(req.query().first("wait").orElse("0s"));
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest("Parameter 'wait' must be a duration such as 25s.");
        }
        if (wait.isNegative() || wait.compareTo(GatewayPollEndpoint.MAX_WAIT) > 0) {
            throw ApiException.badRequest("Parameter 'wait' must be from 0s to "
                    + GatewayPollEndpoint.MAX_WAIT.toSeconds() + "s.");
        }
        return wait;
    }
}
