package io.pylon.worker.usage;

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
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Sends what the {@link UsageRecorder} counted to the Manager ({@code POST /apiops/gateway/usage}, proven by the
 * environment ID), every report interval and once more when the pod stops. Each report has an id of its own, so the
 * Manager counts a report it already has only once; a report stays here until the Manager acknowledged it (2xx), and
 * one the Manager refuses as malformed (400) is dropped and counted. While the Manager cannot be reached, reports
 * wait, oldest first, within the recorder's bound.
 *
 * <p>Threading: one virtual thread drains and sends; the waiting reports are confined to it ({@link #close} joins
 * it before its last send). The state it reports is in volatile fields.
 */
public final class UsageReporter implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(UsageReporter.class.getName());
    static final String PATH = "/apiops/gateway/usage";
    /** Entries per report: keeps one report's body to about a megabyte. */
    static final int MAX_ENTRIES_PER_REPORT = 5000;

    private record Report(String id, List<UsageEntry> entries) {
        long requests() {
            return entries.stream().mapToLong(UsageEntry::requests).sum();
        }
    }

    private final URI manager;
    private final String environmentId;
    private final UsageRecorder recorder;
    private final Duration interval;
    private final Duration timeout;
    private final HttpClient http;
    private final String reporterId;
    private final Deque<Report> waiting = new ArrayDeque<>();
    private long sequence;
    private volatile int waitingReports;
    private volatile @Nullable String lastError;
    private volatile long lastAcknowledged;
    private volatile boolean stopped;
    private @Nullable Thread thread;
    private final ManagerContact contact;

    /** @param contact what the Worker says about reaching its Manager, shared with its followers */
    public UsageReporter(URI manager, String environmentId, String podName, UsageRecorder recorder, Duration interval,
                         Duration timeout, ManagerContact contact) {
        this.manager = manager;
        this.contact = contact;
        this.environmentId = environmentId;
        this.recorder = recorder;
        this.interval = interval;
        this.timeout = timeout;
        this.reporterId = podName.replaceAll("[^A-Za-z0-9._-]", "_") + "-" + UUID.randomUUID();
        this.http = HttpClient.newBuilder().connectTimeout(timeout).followRedirects(HttpClient.Redirect.NEVER).build();
    }

    public UsageRecorder recorder() {
        return recorder;
    }

    public synchronized void start() {
        thread = Thread.ofVirtual().name("gateway-usage-reporter").start(this::run);
    }

    private void run() {
        long backoff = 0;
        while (!stopped) {
            try {
                Thread.sleep(backoff > 0 ? backoff : interval.toMillis());
            } catch (InterruptedException e) {
                return;
            }
            backoff = reportOnce() ? 0 : Math.min(30_000, Math.max(interval.toMillis(), backoff * 2));
        }
    }

    /** Drains the recorder and sends every waiting report, oldest first. @return false when one could not be sent */
    boolean reportOnce() {
        List<UsageEntry> drained = recorder.drain();
        for (int from = 0; from < drained.size(); from += MAX_ENTRIES_PER_REPORT) {
            waiting.addLast(new Report(reporterId + "-" + (++sequence),
                    List.copyOf(drained.subList(from, Math.min(drained.size(), from + MAX_ENTRIES_PER_REPORT)))));
        }
        waitingReports = waiting.size();
        while (!waiting.isEmpty()) {
            Report report = waiting.peekFirst();
            int status = send(report);
            if (status == 400) {
                LOG.log(Level.WARNING, "The Manager refused usage report " + report.id() + " as malformed; its "
                        + report.requests() + " request(s) are dropped");
                recorder.lost(report.requests());
            } else if (status < 200 || status > 299) {
                waitingReports = waiting.size();
                return false;
            } else {
                lastAcknowledged = System.currentTimeMillis();
                lastError = null;
            }
            waiting.removeFirst();
            recorder.released(report.entries().size());
        }
        waitingReports = 0;
        return true;
    }

    private int send(Report report) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("report", report.id());
        body.put("entries", report.entries().stream().map(UsageEntry::toJson).toList());
        HttpRequest request = HttpRequest.newBuilder(manager.resolve(PATH))
                .header("X-Pylon-Environment-Id", environmentId)
                .header("Content-Type", "application/json")
                .timeout(timeout.plusSeconds(10))
                .POST(HttpRequest.BodyPublishers.ofByteArray(Json.bytes(body))).build();
        try {
            // the timeout bounds the whole answer: a Manager stalled mid-answer would stop the reports for good
            HttpResponse<Void> response = WholeAnswer.send(http, request, HttpResponse.BodyHandlers.discarding());
            contact.answered();
            if (response.statusCode() / 100 != 2) {
                failed("The Manager answered a usage report with " + response.statusCode());
            }
            return response.statusCode();
        } catch (IOException e) {
            // an unreachable Manager is said once for the whole Worker; the counts wait, as diagnostics show
            lastError = "A usage report could not be sent (" + e.getClass().getSimpleName() + ")";
            contact.unreachable(e.getClass().getSimpleName());
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    private void failed(String reason) {
        if (!reason.equals(lastError)) {
            LOG.log(Level.WARNING, reason + "; the counts wait and are sent again");
        }
        lastError = reason;
    }

    public Map<String, Object> describe() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("usageCells", recorder.held());
        map.put("usageReportsWaiting", waitingReports);
        map.put("usageDropped", recorder.dropped());
        map.put("usageLastAcknowledged", lastAcknowledged == 0 ? null
                : java.time.Instant.ofEpochMilli(lastAcknowledged).toString());
        map.put("usageReportError", lastError);
        return map;
    }

    /** Stops the loop, then sends what is left once (a Manager that does not answer in time loses it). */
    @Override
    public void close() {
        Thread running;
        synchronized (this) {
            stopped = true;
            running = thread;
        }
        if (running != null) {
            running.interrupt();
            try {
                running.join(timeout.toMillis() + 10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            if (running.isAlive()) {
                return; // still inside a send: the waiting reports are its, not ours
            }
        }
        reportOnce();
    }
}
