package io.pylon.manager.usage;

import com.fasterxml.jackson.databind.JsonNode;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.pylon.core.http.Json;
import io.pylon.core.http.Routes;
import io.pylon.manager.api.ApiException;
import io.pylon.manager.api.RequestBodies;
import io.pylon.manager.deployments.GatewayPollEndpoint;
import io.pylon.manager.environments.Environment;
import io.pylon.manager.environments.EnvironmentStore;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * {@code POST /apiops/gateway/usage}: a Worker's report of what it counted, {@code {"report": id, "entries":
 * [{"application", "proxy", "minute", "requests", "clientErrors", "serverErrors", "latencyMicrosSum",
 * "latencyMicrosMax"}]}}, proven by the environment ID like the Workers' polls. A report is counted once whatever
 * how often it arrives; 200 acknowledges it (counted now or before), 400 refuses a malformed one as a whole.
 * Stateless; called concurrently.
 */
public final class UsageReportEndpoint {
    public static final String PATH = "/apiops/gateway/usage";
    static final int MAX_BODY = 4 * 1024 * 1024;
    static final int MAX_ENTRIES = 5000;
    private static final Pattern REPORT = Pattern.compile("[A-Za-z0-9._-]{1,100}");
    private static final Pattern APPLICATION = Pattern.compile("[A-Za-z0-9-]{1,36}");
    private static final Set<String> FIELDS = Set.of("application", "proxy", "minute", "requests", "clientErrors",
            "serverErrors", "latencyMicrosSum", "latencyMicrosMax");

    private final EnvironmentStore environments;
    private final UsageStore store;
    private final Clock clock;
    private final Duration retention;

    public UsageReportEndpoint(EnvironmentStore environments, UsageStore store, Clock clock, Duration retention) {
        this.environments = environments;
        this.store = store;
        this.clock = clock;
        this.retention = retention;
    }

    public void register(Routes routes) {
        routes.post(PATH, (req, res) -> {
            try {
                report(req, res);
            } catch (ApiException e) {
                e.send(res);
            }
        });
    }

    private void report(ServerRequest req, ServerResponse res) {
        String environment = environment(req);
        if (!"application/json".equals(RequestBodies.mediaType(req))) {
            throw new ApiException(Status.UNSUPPORTED_MEDIA_TYPE_415, "invalid_request",
                    "The body must be application/json.");
        }
        JsonNode body;
        try {
            body = Json.MAPPER.readTree(RequestBodies.read(req, MAX_BODY));
        } catch (IOException e) {
            throw ApiException.badRequest("The body is not valid JSON.");
        }
        if (body == null || !body.isObject()) {
            throw ApiException.badRequest("The body must be a JSON object.");
        }
        String report = body.path("report").asText("");
        if (!REPORT.matcher(report).matches()) {
            throw ApiException.badField("report", "The field 'report' must be 1 to 100 letters, digits, '.', '_', '-'.");
        }
        JsonNode entries = body.path("entries");
        if (!entries.isArray() || entries.size() > MAX_ENTRIES) {
            throw ApiException.badField("entries", "The field 'entries' must be an array of at most " + MAX_ENTRIES
                    + " counts.");
        }
        Instant now = clock.instant();
        List<UsageStore.Row> rows = new ArrayList<>(entries.size());
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < entries.size(); i++) {
            UsageStore.Row row = row(entries.get(i), "entries[" + i + "]", now);
            if (!seen.add(row.application() + ' ' + row.proxy() + ' ' + row.minute())) {
                throw ApiException.badField("entries", "entries[" + i + "] repeats an application, proxy and minute.");
            }
            if (!row.minute().isBefore(now.minus(retention))) {
                rows.add(row); // counts older than the retention would be pruned at once: acknowledged, not stored
            }
        }
        boolean counted = store.add(report, environment, rows, now);
        Json.send(res, Map.of("report", report, "counted", counted));
    }

    private UsageStore.Row row(JsonNode entry, String where, Instant now) {
        if (!entry.isObject()) {
            throw ApiException.badField("entries", where + " must be an object.");
        }
        entry.fieldNames().forEachRemaining(name -> {
            if (!FIELDS.contains(name)) {
                throw ApiException.badField("entries", where + " has an unknown field '" + name + "'.");
            }
        });
        String application = entry.path("application").asText("");
        if (!APPLICATION.matcher(application).matches()) {
            throw ApiException.badField("entries", where + ".application must be an application id.");
        }
        String proxy = entry.path("proxy").asText("");
        if (!UsageEndpoints.NAME.matcher(proxy).matches()) {
            throw ApiException.badField("entries", where + ".proxy must be a proxy's name.");
        }
        Instant minute;
        try {
            minute = Instant.parse(entry.path("minute").asText(""));
        } catch (DateTimeParseException e) {
            throw ApiException.badField("entries", where + ".minute must be an instant.");
        }
        if (minute.getEpochSecond() % 60 != 0 || minute.getNano() != 0 || minute.isAfter(now.plus(Duration.ofMinutes(5)))) {
            throw ApiException.badField("entries", where + ".minute must be the start of a minute, not in the future.");
        }
        long requests = count(entry, "requests", where);
        long clientErrors = count(entry, "clientErrors", where);
        long serverErrors = count(entry, "serverErrors", where);
        if (requests < 1 || clientErrors + serverErrors > requests) {
            throw ApiException.badField("entries", where + " must count at least one request and no more errors "
                    + "than requests.");
        }
        long latencySum = count(entry, "latencyMicrosSum", where);
        long latencyMax = count(entry, "latencyMicrosMax", where);
        if (latencyMax > latencySum) {
            throw ApiException.badField("entries", where + ".latencyMicrosMax must not exceed latencyMicrosSum.");
        }
        return new UsageStore.Row(application, proxy, minute, requests, clientErrors, serverErrors, latencySum,
                latencyMax);
    }

    private static long count(JsonNode entry, String field, String where) {
        JsonNode node = entry.get(field);
        if (node == null || !node.isIntegralNumber() || !node.canConvertToLong() || node.asLong() < 0
                || node.asLong() > Long.MAX_VALUE / 1024) {
            throw ApiException.badField("entries", where + "." + field + " must be a whole number, 0 or more.");
        }
        return node.asLong();
    }

    private String environment(ServerRequest req) {
        byte[] given = req.headers().first(GatewayPollEndpoint.ENVIRONMENT_ID).orElse("")
                .getBytes(StandardCharsets.UTF_8);
        String found = null;
        for (Environment environment : environments.list()) {
            String id = environment.environmentId();
            if (id != null && MessageDigest.isEqual(given, id.getBytes(StandardCharsets.UTF_8))) {
                found = environment.name();
            }
        }
        if (found == null) {
            throw new ApiException(Status.UNAUTHORIZED_401, "invalid_environment",
                    "Header 'X-Pylon-Environment-Id' must carry the ID of an environment of this Manager.");
        }
        return found;
    }
}
