package io.pylon.worker.config;

import io.pylon.cache.client.GridBundle;
import io.pylon.core.http.WholeAnswer;
import io.pylon.gateway.model.Cidr;
import org.jspecify.annotations.Nullable;

import java.io.IOException;
import java.io.InputStream;
import java.lang.System.Logger.Level;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Follows the Manager: long-polls {@code GET /apiops/gateway/bundle} with the hash in force, applies each new bundle
 * through {@link GatewayConfig}, then writes it as last-known-good; each poll reports what is in force and the last
 * refusal. At start it takes the Manager's bundle, else its disk copy, else the copy the Manager keeps in the data
 * grid. While the Manager cannot be asked, each failed poll also reads the grid's copy and applies it when it is a
 * newer version than the one in force (so a Worker cut off from the Manager still follows deployments, and one that
 * started from an old disk copy catches up); between polls that back off it reads the grid's copy every second. A copy
 * that fails its seal or hash is refused once and reported like any refusal. A bundle of the Manager's that was
 * refused is asked for again only after a back-off ({@link #REFUSED_RETRY_FIRST}, doubling up to
 * {@link #REFUSED_RETRY_MAX}); until then polls wait for another one. Every step is bounded: headers and body each
 * within the poll's wait plus {@code timeout} (a Manager that hangs mid-answer costs one failed poll, never the
 * configuration in force), the body to {@code maxBytes}. Whether the Manager can be reached is told to the
 * {@link ManagerContact} the Worker's followers share, which logs only the changes (waiting, connected, lost).
 *
 * <p>Threading: one virtual thread runs the loop ({@link #start} is synchronized so it starts once) and is the only
 * one reading the grid; diagnostics threads read its state through volatile fields and an atomic failure count.
 */
public final class ManagerFollower implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(ManagerFollower.class.getName());
    private static final String PATH = "/apiops/gateway/bundle";
    private static final long GRID_READ_MILLIS = 1_000;
    /** The first wait before the Manager's refused bundle is fetched again; it doubles on each refusal, up to the max. */
    static final Duration REFUSED_RETRY_FIRST = Duration.ofSeconds(1);
    static final Duration REFUSED_RETRY_MAX = Duration.ofSeconds(60);

    private final URI manager;
    private final String environmentId;
    private final String podName;
    private final @Nullable String podIp;
    private final GatewayConfig config;
    private final LastKnownGood disk;
    private final @Nullable GridBundleSource grid;
    private final Duration wait;
    private final Duration timeout;
    private final int maxBytes;
    private final ScheduledExecutorService watchdog;
    private final HttpClient http;
    private final ManagerContact contact;
    private final AtomicLong pollFailures = new AtomicLong();
    private volatile @Nullable Instant lastPoll;
    private volatile @Nullable String lastPollOutcome;
    private volatile @Nullable String lastError;
    private volatile boolean stopped;
    private volatile @Nullable Long gridVersion;
    private volatile @Nullable String gridOutcome;
    // the hash of the Manager's bundle this Worker refused: polls wait for another one (If-None-Match) until the
    // back-off ends, then fetch it once more (a CA file mounted since, bytes altered on the way); polling thread only
    private @Nullable String refusedHash;
    private long refusedRetryAt;
    private Duration refusedBackOff = Duration.ZERO;
    private @Nullable String refusedGridCopy;
    private @Nullable Thread thread;

    public ManagerFollower(URI manager, String environmentId, String podName, String podIp, GatewayConfig config, LastKnownGood disk,
                           @Nullable GridBundleSource grid, Duration wait, Duration timeout, int maxBytes,
                           ScheduledExecutorService watchdog, ManagerContact contact) {
        this.grid = grid;
        this.contact = contact;
        this.manager = manager;
        this.environmentId = environmentId;
        this.podName = podName;
        this.podIp = Cidr.addressLiteral(podIp);
        this.config = config;
        this.disk = disk;
        this.wait = wait;
        this.timeout = timeout;
        this.maxBytes = maxBytes;
        this.watchdog = watchdog;
        this.http = HttpClient.newBuilder().connectTimeout(timeout).followRedirects(HttpClient.Redirect.NEVER).build();
    }

    public synchronized void start() {
        thread = Thread.ofVirtual().name("gateway-config-follower").start(this::run);
    }

    private void run() {
        firstConfiguration();
        long backoff = 0;
        while (!stopped) {
            boolean ok = pollOnce(wait);
            if (ok) {
                backoff = 0;
                continue;
            }
            if (stopped) {
                return; // the poll failed because the pod stops: the data grid's client may be closing too
            }
            fromGrid();
            // unconfigured (readiness DOWN), the Manager is asked at least every second; the grid always is
            backoff = Math.min(config.applied() == null ? 1_000 : 10_000, backoff == 0 ? 500 : backoff * 2);
            try {
                backOff(backoff);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    // the Manager's poll backs off, the grid's copy is read every second meanwhile: a deployment made while the
    // Manager cannot be reached arrives within about a second, not at the next poll
    private void backOff(long millis) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        long left = millis;
        while (left > 0 && !stopped) {
            Thread.sleep(Math.min(left, GRID_READ_MILLIS));
            left = TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime());
            if (left > 0) {
                fromGrid();
            }
        }
    }

    // the Manager first (asked not to wait), then the disk copy, then the grid's copy (also over an older disk copy)
    private void firstConfiguration() {
        Optional<byte[]> stored = Optional.empty();
        try {
            stored = disk.read();
        } catch (IOException e) {
            lastError = "The disk copy " + disk.file() + " cannot be read (" + e.getClass().getSimpleName() + ")";
        }
        if (pollOnce(Duration.ZERO) && config.applied() != null) {
            return;
        }
        if (stored.isPresent() && config.applied() == null) {
            if (config.apply(stored.get(), null, null, "disk") == null) {
                GatewayConfig.Rejection refused = config.rejection();
                lastError = "The disk copy was refused: " + (refused == null ? "" : refused.reason());
            }
        }
        fromGrid();
    }

    /** Applies the grid's copy when it is sealed, intact and newer than the bundle in force; never throws. */
    private void fromGrid() {
        if (grid == null) {
            return;
        }
        GridBundleSource.Read read = grid.read();
        switch (read) {
            case GridBundleSource.Unavailable unavailable -> gridOutcome = "unavailable: " + unavailable.reason();
            case GridBundleSource.Absent absent -> gridOutcome = "no copy";
            case GridBundleSource.Refused refused -> {
                gridVersion = refused.bundle().version();
                if (newer(refused.bundle()) && firstTry(refused.bundle())) {
                    config.refuse(refused.bundle().version(), refused.bundle().sha256(), refused.reason());
                }
                gridOutcome = "refused";
            }
            case GridBundleSource.Found found -> {
                GridBundle bundle = found.bundle();
                gridVersion = bundle.version();
                if (!newer(bundle)) {
                    gridOutcome = "not newer";
                    return;
                }
                if (!firstTry(bundle)) {
                    gridOutcome = "refused";
                    return;
                }
                byte[] json = bundle.json();
                if (config.apply(json, bundle.sha256(), bundle.version(), "grid") == null) {
                    gridOutcome = "refused";
                    return;
                }
                refusedGridCopy = null;
                gridOutcome = "applied";
                try {
                    disk.write(json);
                } catch (IOException e) {
                    lastError = "The disk copy could not be written (" + diskReason(e) + ")";
                    LOG.log(Level.WARNING, lastError);
                }
            }
        }
    }

    /** What the disk said ("No space left on device"); a FileSystemException's message would name the file too. */
    private static String diskReason(IOException e) {
        String reason = e instanceof FileSystemException failure ? failure.getReason() : e.getMessage();
        return reason == null || reason.isBlank() ? e.getClass().getSimpleName() : reason;
    }

    private boolean newer(GridBundle bundle) {
        GatewayConfig.Applied applied = config.applied();
        return applied == null || bundle.version() > applied.version();
    }

    // each copy is tried once, not on every failed poll: a refused one stays refused until the grid holds another
    private boolean firstTry(GridBundle bundle) {
        String identity = bundle.version() + "/" + bundle.sha256() + "/" + bundle.seal() + "/" + bundle.size();
        if (identity.equals(refusedGridCopy)) {
            return false;
        }
        refusedGridCopy = identity;
        return true;
    }

    /** One poll; false when the Manager could not be asked or answered with an error. */
    boolean pollOnce(Duration pollWait) {
        lastPoll = Instant.now();
        GatewayConfig.Applied applied = config.applied();
        GatewayConfig.Rejection rejection = config.rejection();
        String known = applied == null ? null : applied.sha256();
        Duration thisWait = pollWait;
        long untilRetry = refusedRetryAt - System.nanoTime();
        if (refusedHash != null && untilRetry > 0) {
            known = refusedHash; // the Manager answers when it has another bundle, or 304 when the wait runs out
            thisWait = pollWait.compareTo(Duration.ofNanos(untilRetry)) < 0 ? pollWait : Duration.ofNanos(untilRetry);
        }
        HttpRequest.Builder request = HttpRequest.newBuilder(manager.resolve(PATH + "?wait=" + thisWait.toMillis() + "ms"))
                .header("X-Pylon-Environment-Id", environmentId)
                .header("X-Pylon-Pod", podName)
                .header("X-Pylon-Config-Source", applied == null ? "none" : applied.source())
                .GET();
        if (podIp != null) {
            request.header("X-Pylon-Pod-Ip", podIp);
        }
        if (known != null) {
            request.header("If-None-Match", "\"" + known + "\"");
        }
        if (applied != null) {
            request.header("X-Pylon-Applied-Version", Long.toString(applied.version()))
                    .header("X-Pylon-Applied-Hash", applied.sha256());
        }
        if (rejection != null && rejection.version() != null) {
            request.header("X-Pylon-Rejected-Version", Long.toString(rejection.version()))
                    .header("X-Pylon-Rejection", URLEncoder.encode(truncate(rejection.reason()), StandardCharsets.UTF_8));
        }
        Duration deadline = thisWait.plus(timeout);
        CompletableFuture<HttpResponse<InputStream>> sent = http.sendAsync(request.build(),
                HttpResponse.BodyHandlers.ofInputStream());
        HttpResponse<InputStream> response;
        try {
            response = sent.get(deadline.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            sent.cancel(true);
            return unreachable("The Manager did not answer within " + deadline.toMillis() + " ms",
                    "no answer within " + deadline.toMillis() + " ms");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            String name = (cause == null ? e : cause).getClass().getSimpleName();
            return unreachable("The Manager cannot be reached (" + name + ")", name);
        } catch (InterruptedException e) {
            sent.cancel(true);
            Thread.currentThread().interrupt();
            return false;
        }
        contact.answered();
        InputStream body = response.body();
        ScheduledFuture<?> guard = watchdog.schedule(() -> closeQuietly(body), timeout.toMillis(), TimeUnit.MILLISECONDS);
        try (body) {
            int status = response.statusCode();
            if (status == 304) {
                lastPollOutcome = "unchanged";
                return true;
            }
            if (status != 200) {
                String text = new String(body.readNBytes(2048), StandardCharsets.UTF_8);
                if (ManagerContact.replicaStopping(status, text)) {
                    lastPollOutcome = "manager stopping";
                    return false;
                }
                return failed("The Manager answered " + status + ": " + text.replaceAll("\\p{Cntrl}", " "));
            }
            byte[] bytes = body.readNBytes(maxBytes + 1);
            if (bytes.length > maxBytes) {
                return failed("The Manager's bundle is larger than " + maxBytes + " bytes; not applied");
            }
            String etag = response.headers().firstValue("ETag").map(ManagerFollower::unquote).orElse(null);
            Long version = response.headers().firstValue("X-Pylon-Bundle-Version").map(ManagerFollower::number).orElse(null);
            if (etag == null) {
                return failed("The Manager's answer has no ETag; not applied");
            }
            guard.cancel(false);
            GatewayConfig.Applied now = config.apply(bytes, etag, version, "manager");
            if (now == null) {
                lastPollOutcome = "rejected";
                refused(etag);
                return true; // the Manager answered; the refusal goes out with the next poll
            }
            refusedHash = null;
            refusedBackOff = Duration.ZERO;
            lastPollOutcome = "applied";
            lastError = null;
            try {
                disk.write(bytes);
            } catch (IOException e) {
                lastError = "The disk copy could not be written (" + diskReason(e) + ")";
                LOG.log(Level.WARNING, lastError);
            }
            return true;
        } catch (IOException e) {
            return failed("The Manager's answer broke off (" + e.getClass().getSimpleName() + ")");
        } finally {
            guard.cancel(false);
        }
    }

    private void refused(String etag) {
        if (!etag.equals(refusedHash)) {
            refusedBackOff = REFUSED_RETRY_FIRST;
        } else if (refusedBackOff.multipliedBy(2).compareTo(REFUSED_RETRY_MAX) < 0) {
            refusedBackOff = refusedBackOff.multipliedBy(2);
        } else {
            refusedBackOff = REFUSED_RETRY_MAX;
        }
        refusedHash = etag;
        refusedRetryAt = System.nanoTime() + refusedBackOff.toNanos();
    }

    // said by the contact once per change (waiting, connected, lost), not on every poll
    private boolean unreachable(String error, String reason) {
        pollFailures.incrementAndGet();
        lastPollOutcome = "failed";
        lastError = error;
        contact.unreachable(reason);
        return false;
    }

    private boolean failed(String reason) {
        pollFailures.incrementAndGet();
        lastPollOutcome = "failed";
        if (!reason.equals(lastError)) {
            LOG.log(Level.WARNING, reason + "; the configuration in force stays");
        }
        lastError = reason;
        return false;
    }

    private static void closeQuietly(InputStream in) {
        try {
            in.close();
        } catch (IOException e) {
            // closing is how a stalled read is ended; nothing more to do
        }
    }

    private static String truncate(String text) {
        return text.length() > 900 ? text.substring(0, 900) : text;
    }

    private static String unquote(String etag) {
        String value = etag.strip();
        return value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")
                ? value.substring(1, value.length() - 1) : value;
    }

    private static @Nullable Long number(String text) {
        try {
            return Long.parseLong(text.strip());
        } catch (NumberFormatException e) {
            return null;
        }
    }

    public long pollFailures() {
        return pollFailures.get();
    }

    public Map<String, Object> describe() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("configSource", "manager");
        map.put("managerUrl", manager.toString());
        map.putAll(config.describe());
        map.put("lastPoll", lastPoll == null ? null : lastPoll.toString());
        map.put("lastPollOutcome", lastPollOutcome);
        map.put("lastError", lastError);
        map.put("pollFailures", pollFailures.get());
        map.put("diskCopy", disk.file().toString());
        if (grid != null) {
            Map<String, Object> copy = new LinkedHashMap<>();
            copy.put("state", grid.describeGrid());
            copy.put("version", gridVersion);
            copy.put("lastOutcome", gridOutcome);
            map.put("gridCopy", copy);
        }
        return map;
    }

    /** Stops following and tells the Manager this pod is leaving, so deploys stop waiting for it (bounded, best effort). */
    @Override
    public synchronized void close() {
        stopped = true;
        if (thread != null) {
            thread.interrupt();
        }
        try {
            WholeAnswer.send(http, HttpRequest.newBuilder(manager.resolve(PATH)).timeout(timeout)
                    .header("X-Pylon-Environment-Id", environmentId).header("X-Pylon-Pod", podName)
                    .header("X-Pylon-Leaving", "true").GET().build(), HttpResponse.BodyHandlers.discarding());
        } catch (IOException e) {
            // the Manager is away: it forgets the pod 90 s after its last poll
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
