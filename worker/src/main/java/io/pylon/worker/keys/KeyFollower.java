package io.pylon.worker.keys;

import org.jspecify.annotations.Nullable;

import io.pylon.core.http.Json;
import io.pylon.core.http.WholeAnswer;
import io.pylon.worker.config.ManagerContact;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Follows the Manager's key set: long-polls {@code GET /apiops/gateway/keys} with the version in force and replaces
 * the {@link KeySet} with each new one, so a revoked key stops within one round trip of the change. A failed poll
 * backs off from 0.5 s to 10 s and keeps the key set in force; a Manager that cannot be reached is told to the
 * {@link ManagerContact} the Worker's followers share, which logs only the changes. Threading: one virtual thread polls; the state it
 * reports is in volatile fields.
 */
public final class KeyFollower implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(KeyFollower.class.getName());
    private static final String PATH = "/apiops/gateway/keys";
    private static final int MAX_BYTES = 64 * 1024 * 1024;
    /** The Manager names the environment the poll's ID belongs to: its Portal origin is the one this Worker admits. */
    private static final String ENVIRONMENT_NAME = "X-Pylon-Environment-Name";

    private final URI manager;
    private final String environmentId;
    private final KeySet keys;
    private final Duration wait;
    private final Duration timeout;
    private final HttpClient http;
    private final ManagerContact contact;
    private volatile @Nullable String lastError;
    private volatile boolean stopped;
    private @Nullable Thread thread;

    public KeyFollower(URI manager, String environmentId, KeySet keys, Duration wait, Duration timeout,
                       ManagerContact contact) {
        this.manager = manager;
        this.environmentId = environmentId;
        this.keys = keys;
        this.wait = wait;
        this.timeout = timeout;
        this.contact = contact;
        this.http = HttpClient.newBuilder().connectTimeout(timeout).followRedirects(HttpClient.Redirect.NEVER).build();
    }

    public synchronized void start() {
        thread = Thread.ofVirtual().name("gateway-key-follower").start(this::run);
    }

    private void run() {
        long backoff = 0;
        boolean first = true;
        while (!stopped) {
            boolean ok = pollOnce(first ? Duration.ZERO : wait);
            first = false;
            if (ok) {
                backoff = 0;
                continue;
            }
            backoff = Math.min(10_000, backoff == 0 ? 500 : backoff * 2);
            try {
                Thread.sleep(backoff);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    boolean pollOnce(Duration pollWait) {
        Long known = keys.version();
        HttpRequest request = HttpRequest.newBuilder(manager.resolve(PATH + "?wait=" + pollWait.toMillis() + "ms"))
                .header("X-Pylon-Environment-Id", environmentId)
                .header("If-None-Match", "\"" + (known == null ? -1 : known) + "\"")
                .timeout(pollWait.plus(timeout))
                .GET().build();
        HttpResponse<byte[]> response;
        try {
            // the timeout bounds the whole answer: a Manager stalled mid-answer would stop the key updates for good
            response = WholeAnswer.send(http, request, WholeAnswer.bytesAtMost(MAX_BYTES));
        } catch (WholeAnswer.TooLargeException e) {
            contact.answered();
            return failed("The Manager's key set is larger than " + MAX_BYTES / (1024 * 1024) + " MiB");
        } catch (IOException e) {
            lastError = "The Manager cannot be reached (" + e.getClass().getSimpleName() + ")";
            contact.unreachable(e.getClass().getSimpleName());
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
        contact.answered();
        if (response.statusCode() == 304) {
            return true;
        }
        if (ManagerContact.replicaStopping(response.statusCode(), new String(response.body(), StandardCharsets.UTF_8))) {
            return false;
        }
        if (response.statusCode() != 200) {
            return failed("The Manager answered the key poll with " + response.statusCode());
        }
        try {
            keys.replace(Json.MAPPER.readTree(response.body()),
                    response.headers().firstValue(ENVIRONMENT_NAME).orElse(null));
        } catch (IOException | IllegalArgumentException e) {
            return failed("The key poll failed (" + e.getClass().getSimpleName() + ")");
        }
        lastError = null;
        return true;
    }

    private boolean failed(String reason) {
        if (!reason.equals(lastError)) {
            LOG.log(Level.WARNING, reason + "; the key set in force stays");
        }
        lastError = reason;
        return false;
    }

    public Map<String, Object> describe() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("keySetVersion", keys.version());
        map.put("keyCount", keys.size());
        map.put("keyPollError", lastError);
        return map;
    }

    @Override
    public synchronized void close() {
        stopped = true;
        if (thread != null) {
            thread.interrupt();
        }
    }
}
