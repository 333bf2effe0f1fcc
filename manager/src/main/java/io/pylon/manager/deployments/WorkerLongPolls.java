package io.pylon.manager.deployments;

import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import io.pylon.core.config.SettingType;
import io.pylon.manager.api.ApiException;
import io.pylon.manager.environments.Environment;
import io.pylon.manager.environments.EnvironmentStore;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.Semaphore;

/**
 * What the Workers' long-polls (the bundle's and the key set's) share: the environment ID that proves the caller,
 * the {@code wait} parameter, and the bound on how many polls one replica holds parked at once (beyond it, 503 with
 * Retry-After: each parked poll holds a virtual thread).
 *
 * <p>Threading: safe for concurrent use. The semaphore counts the parked polls; the set of their threads is guarded by
 * its own monitor, which {@link #stop} holds while it sets the volatile {@code stopping} flag and interrupts them, so
 * no thread is interrupted after it left the set.
 */
public final class WorkerLongPolls {
    public static final Duration MAX_WAIT = Duration.ofSeconds(60);

    /** A wait for the next state, ended by a change or by the poll's {@code wait}. */
    @FunctionalInterface
    public interface Wait<T> {
        T await() throws InterruptedException;
    }

    private final int max;
    private final String what;
    private final Semaphore parked;
    private final Set<Thread> waiting = new HashSet<>();
    private volatile boolean stopping;

    /** @param what the polls as the busy answer names them, e.g. "key long-polls" */
    public WorkerLongPolls(int max, String what) {
        this.max = max;
        this.what = what;
        this.parked = new Semaphore(max);
    }

    /** Runs {@code wait} in one of the bounded slots; 503 busy when every slot is taken, 503 stopping once stopped. */
    public <T> T await(Wait<T> wait) throws InterruptedException {
        if (stopping) {
            throw stoppingError();
        }
        if (!parked.tryAcquire()) {
            throw ApiException.retryLater(Status.SERVICE_UNAVAILABLE_503, "busy",
                    "This Manager holds " + max + " " + what + "; poll again.", Duration.ofSeconds(1));
        }
        Thread me = Thread.currentThread();
        try {
            synchronized (waiting) {
                if (stopping) {
                    throw stoppingError();
                }
                waiting.add(me);
            }
            try {
                return wait.await();
            } catch (InterruptedException e) {
                if (stopping) {
                    throw stoppingError();
                }
                throw e;
            } finally {
                synchronized (waiting) {
                    waiting.remove(me);
                }
                if (stopping) {
                    Thread.interrupted(); // stop() may have interrupted us after the wait ended: not this request's
                }
            }
        } finally {
            parked.release();
        }
    }

    /**
     * Ends every parked poll now, and answers later ones at once, with 503 stopping: the Workers poll another replica
     * instead of holding this one's stop until their waits run out (up to {@link #MAX_WAIT}).
     */
    public void stop() {
        synchronized (waiting) {
            stopping = true;
            waiting.forEach(Thread::interrupt);
        }
    }

    private static ApiException stoppingError() {
        return ApiException.retryLater(Status.SERVICE_UNAVAILABLE_503, "stopping",
                "This Manager is stopping; poll again.", Duration.ofSeconds(1));
    }

    /** The environment whose ID the caller presents (compared in constant time with every one); 401 otherwise. */
    public static Environment authenticate(ServerRequest req, EnvironmentStore environments) {
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

    /** The poll's {@code wait} parameter, 0s when absent, at most {@link #MAX_WAIT}. */
    public static Duration waitOf(ServerRequest req) {
        Duration wait;
        try {
            wait = SettingType.DURATION_TYPE.parse(req.query().first("wait").orElse("0s"));
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest("Parameter 'wait' must be a duration such as 25s.");
        }
        if (wait.isNegative() || wait.compareTo(MAX_WAIT) > 0) {
            throw ApiException.badRequest("Parameter 'wait' must be from 0s to " + MAX_WAIT.toSeconds() + "s.");
        }
        return wait;
    }
}
