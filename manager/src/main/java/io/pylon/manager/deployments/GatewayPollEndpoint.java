package io.pylon.manager.deployments;

import org.jspecify.annotations.Nullable;

import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderName;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.pylon.core.http.ErrorBody;
import io.pylon.core.http.Routes;
import io.pylon.gateway.model.Cidr;
import io.pylon.manager.api.ApiException;
import io.pylon.manager.environments.Environment;
import io.pylon.manager.environments.EnvironmentStore;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * {@code GET /apiops/gateway/bundle}: a Worker's long-poll for its environment's bundle. The Worker proves its
 * environment with the environment ID ({@code X-Pylon-Environment-Id}), names itself ({@code X-Pylon-Pod}) and
 * reports, in every poll, what it serves and what it last refused; the answer is the bundle as soon as its hash differs
 * from {@code If-None-Match} (at once when it already does), or 304 when {@code wait} runs out. Concurrent long-polls
 * are bounded per replica.
 *
 * <p>Threading: request threads poll concurrently; a semaphore bounds how many wait at once.
 */
public final class GatewayPollEndpoint {
    public static final String PATH = "/apiops/gateway/bundle";
    public static final HeaderName ENVIRONMENT_ID = HeaderNames.create("X-Pylon-Environment-Id");
    public static final HeaderName POD = HeaderNames.create("X-Pylon-Pod");
    /**
     * The pod's own address (its {@code pylon.pod.ip}); where it is missing or not an IP literal, the connection's
     * peer stands for it. A mesh's sidecar or a shared source address makes the peer another address than the pod's.
     */
    public static final HeaderName POD_IP = HeaderNames.create("X-Pylon-Pod-Ip");
    public static final HeaderName APPLIED_VERSION = HeaderNames.create("X-Pylon-Applied-Version");
    public static final HeaderName APPLIED_HASH = HeaderNames.create("X-Pylon-Applied-Hash");
    public static final HeaderName SOURCE = HeaderNames.create("X-Pylon-Config-Source");
    public static final HeaderName REJECTED_VERSION = HeaderNames.create("X-Pylon-Rejected-Version");
    public static final HeaderName REJECTION = HeaderNames.create("X-Pylon-Rejection");
    public static final HeaderName BUNDLE_VERSION = HeaderNames.create("X-Pylon-Bundle-Version");
    /** {@code true}: the pod is stopping; it is no longer one of the environment's pods (a deploy does not wait for it). */
    public static final HeaderName LEAVING = HeaderNames.create("X-Pylon-Leaving");
    /** Long-polls one replica holds at most; beyond, 503 with Retry-After (each holds a parked virtual thread). */
    public static final int MAX_POLLS = 10_000;
    private static final Pattern POD_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,252}");
    private static final Pattern HASH = Pattern.compile("[0-9a-f]{64}");
    private static final java.util.Set<String> SOURCES = java.util.Set.of("manager", "disk", "grid", "none");

    private final EnvironmentStore environments;
    private final DeploymentStore store;
    private final BundleWatch watch;
    private final Clock clock;
    private final WorkerLongPolls polls = new WorkerLongPolls(MAX_POLLS, "long-polls");

    public GatewayPollEndpoint(EnvironmentStore environments, DeploymentStore store, BundleWatch watch, Clock clock) {
        this.environments = environments;
        this.store = store;
        this.watch = watch;
        this.clock = clock;
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
            GatewayPod report = report(req, environment.name());
            if (req.headers().first(LEAVING).map("true"::equals).orElse(false)) {
                store.forgetPod(environment.name(), report.podName());
                watch.reported(environment.name());
                res.status(Status.NO_CONTENT_204).send();
                return;
            }
            Duration wait = WorkerLongPolls.waitOf(req);
            String known = req.headers().first(HeaderNames.IF_NONE_MATCH).map(GatewayPollEndpoint::unquote).orElse(null);
            store.report(report);
            watch.reported(environment.name());
            BundleWatch.Current current = polls.await(() -> watch.await(environment.name(), known, wait));
            res.header(HeaderNames.ETAG, "\"" + current.sha256() + "\"");
            res.header(BUNDLE_VERSION, Long.toString(current.version()));
            res.header(HeaderNames.CACHE_CONTROL, "no-store");
            if (current.sha256().equals(known)) {
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

    private GatewayPod report(ServerRequest req, String environment) {
        String pod = req.headers().first(POD).orElse("");
        if (!POD_NAME.matcher(pod).matches()) {
            throw ApiException.badRequest("Header 'X-Pylon-Pod' must be the pod's name (letters, digits, '.', '_', '-').");
        }
        Long applied = number(req, APPLIED_VERSION);
        String hash = req.headers().first(APPLIED_HASH).orElse(null);
        if (hash != null && !HASH.matcher(hash).matches()) {
            throw ApiException.badRequest("Header 'X-Pylon-Applied-Hash' must be a SHA-256 in hex.");
        }
        String source = req.headers().first(SOURCE).orElse("none");
        if (!SOURCES.contains(source)) {
            throw ApiException.badRequest("Header 'X-Pylon-Config-Source' must be one of " + SOURCES + ".");
        }
        Long rejected = number(req, REJECTED_VERSION);
        String rejection = req.headers().first(REJECTION).map(GatewayPollEndpoint::decode).orElse(null);
        if (rejection != null && rejection.length() > 1000) {
            rejection = rejection.substring(0, 1000);
        }
        String ip = req.headers().first(POD_IP).map(Cidr::addressLiteral).orElse(null);
        if (ip == null && req.remotePeer().address() instanceof java.net.InetSocketAddress inet) {
            ip = inet.getAddress().getHostAddress();
        }
        return new GatewayPod(environment, pod, ip, applied, hash, source, rejected, rejection, clock.instant());
    }

    private static String decode(String text) {
        try {
            return URLDecoder.decode(text, StandardCharsets.UTF_8).replaceAll("\\p{Cntrl}", " ");
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest("Header 'X-Pylon-Rejection' must be %-encoded text.");
        }
    }

    private static @Nullable Long number(ServerRequest req, HeaderName header) {
        Optional<String> value = req.headers().first(header);
        if (value.isEmpty()) {
            return null;
        }
        try {
            long number = Long.parseLong(value.get());
            if (number >= 0) {
                return number;
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw ApiException.badRequest("Header '" + header.defaultCase() + "' must be a version number.");
    }

    private static String unquote(String etag) {
        String value = etag.strip();
        if (value.startsWith("W/")) {
            value = value.substring(2);
        }
        return value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")
                ? value.substring(1, value.length() - 1) : value;
    }
}
