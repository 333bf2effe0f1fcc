package io.pylon.manager.proxies;

import org.jspecify.annotations.Nullable;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.helidon.webserver.http.ServerRequest;
import io.pylon.manager.api.ApiException;
import io.pylon.manager.api.RequestBodies;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.servers.Server;
import io.swagger.v3.parser.OpenAPIV3Parser;
import io.swagger.v3.parser.core.models.ParseOptions;
import io.swagger.v3.parser.core.models.SwaggerParseResult;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * An OpenAPI 3.0 or 3.1 document (in the body, or fetched from a URL on a host the operator allowed) read with
 * swagger-parser into a proxy definition: name from {@code info.title}, upstream and path prefix from the first
 * server URL, methods from the operations; each can be given instead. External {@code $ref}s are not resolved (no
 * fetches on behalf of a document). Stateless; the HTTP client is thread-safe.
 */
public final class OpenApiImport {
    /** Largest OpenAPI document accepted, in the body or from a URL. */
    public static final int MAX_DOCUMENT = 1024 * 1024;
    /** How long fetching a document by URL may take in all: the answer's head and the document. */
    static final Duration FETCH_TIME = Duration.ofSeconds(10);
    private static final Set<String> FIELDS = Set.of("document", "url", "name", "pathPrefix", "upstreams", "comment");

    /** The definition made from the document, the document itself (stored with the revision) and the comment. */
    public record Imported(JsonNode definition, String document, String comment) {
    }

    private final List<String> allowedHosts;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5))
            .followRedirects(HttpClient.Redirect.NEVER).build();

    public OpenApiImport(List<String> allowedHosts) {
        this.allowedHosts = allowedHosts.stream().map(h -> h.strip().toLowerCase(Locale.ROOT)).toList();
    }

    public Imported read(ServerRequest req) {
        JsonNode body = RequestBodies.document(req, MAX_DOCUMENT + 64 * 1024);
        if (!(body instanceof ObjectNode fields)) {
            throw ApiException.badRequest("The body must be an object with 'document' (the OpenAPI text) or 'url'.");
        }
        RequestBodies.onlyFields(fields, FIELDS);
        String given = RequestBodies.text(fields, "document");
        String url = RequestBodies.text(fields, "url");
        String document;
        if (given != null && url == null) {
            document = given;
        } else if (given == null && url != null) {
            document = fetch(url);
        } else {
            throw ApiException.badRequest("Give exactly one of 'document' (the OpenAPI text) and 'url'.");
        }
        if (document.length() > MAX_DOCUMENT) {
            throw ApiException.badRequest("Field 'document' is larger than " + MAX_DOCUMENT + " characters.");
        }
        ParseOptions options = new ParseOptions();
        options.setResolve(false);
        SwaggerParseResult result = new OpenAPIV3Parser().readContents(document, null, options);
        OpenAPI api = result == null ? null : result.getOpenAPI();
        if (api == null) {
            List<String> messages = result == null || result.getMessages() == null ? List.of() : result.getMessages();
            throw ApiException.badRequest("Field 'document' is not an OpenAPI 3.0 or 3.1 document"
                    + (messages.isEmpty() ? "." : ": " + String.join("; ", messages.stream().limit(5).toList()) + "."));
        }
        ObjectNode definition = JsonNodeFactory.instance.objectNode();
        String title = api.getInfo() == null ? null : api.getInfo().getTitle();
        String name = RequestBodies.text(fields, "name");
        definition.put("name", name != null ? name : slug(title));
        if (title != null && !title.isBlank()) {
            definition.put("description", title.strip().replaceAll("\\p{Cntrl}", " "));
        }
        URI server = firstServer(api);
        String prefix = RequestBodies.text(fields, "pathPrefix");
        if (prefix == null) {
            String serverPath = server == null || server.getRawPath() == null ? "" : server.getRawPath();
            prefix = serverPath.isEmpty() || serverPath.equals("/") ? "/" + definition.get("name").asText() : serverPath;
        }
        definition.put("pathPrefix", prefix);
        ArrayNode upstreams = definition.putArray("upstreams");
        JsonNode listed = fields.get("upstreams");
        if (listed != null && !listed.isNull()) {
            if (!listed.isArray()) {
                throw ApiException.badRequest("Field 'upstreams' must be a list of URLs.");
            }
            listed.forEach(upstreams::add);
        } else if (server != null && server.getHost() != null) {
            upstreams.add(server.getScheme() + "://" + server.getRawAuthority() + (server.getRawPath() == null
                    ? "" : server.getRawPath()));
        } else {
            throw ApiException.badRequest("The document has no absolute server URL: give field 'upstreams'.");
        }
        TreeSet<String> methods = new TreeSet<>();
        if (api.getPaths() != null) {
            for (PathItem item : api.getPaths().values()) {
                item.readOperationsMap().keySet().forEach(m -> methods.add(m.name()));
            }
        }
        if (!methods.isEmpty()) {
            ArrayNode list = definition.putArray("methods");
            methods.forEach(list::add);
        }
        String comment = RequestBodies.text(fields, "comment");
        return new Imported(definition, document, comment == null ? "Imported from OpenAPI" : comment);
    }

    private static @Nullable URI firstServer(OpenAPI api) {
        List<Server> servers = api.getServers();
        if (servers == null || servers.isEmpty() || servers.getFirst().getUrl() == null) {
            return null;
        }
        try {
            URI uri = URI.create(servers.getFirst().getUrl().strip());
            return "http".equals(uri.getScheme()) || "https".equals(uri.getScheme()) || uri.getScheme() == null
                    ? uri : null;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    static String slug(@Nullable String title) {
        if (title == null) {
            throw ApiException.badRequest("The document has no info.title: give field 'name'.");
        }
        String slug = title.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-+|-+$", "");
        if (slug.isEmpty()) {
            throw ApiException.badRequest("info.title gives no usable name: give field 'name'.");
        }
        return slug.length() > 64 ? slug.substring(0, 64).replaceAll("-+$", "") : slug;
    }

    private String fetch(String url) {
        URI uri;
        try {
            uri = URI.create(url.strip());
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest("Field 'url' is not a URL.");
        }
        if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) || uri.getHost() == null
                || uri.getRawUserInfo() != null) {
            throw ApiException.badRequest("Field 'url' must be an http:// or https:// URL without user info.");
        }
        String host = uri.getHost().toLowerCase(Locale.ROOT);
        String hostPort = host + ":" + (uri.getPort() == -1 ? ("https".equals(uri.getScheme()) ? 443 : 80) : uri.getPort());
        if (!allowedHosts.contains(host) && !allowedHosts.contains(hostPort)) {
            throw new ApiException(io.helidon.http.Status.FORBIDDEN_403, "url_not_allowed", "Field 'url': host '"
                    + host + "' is not in pylon.manager.proxies.import-url-hosts"
                    + (allowedHosts.isEmpty() ? " (empty: import by URL is off); send the document in 'document'." : "."));
        }
        long deadline = System.nanoTime() + FETCH_TIME.toNanos();
        AtomicBoolean cut = new AtomicBoolean();
        try {
            HttpResponse<InputStream> response = http.send(HttpRequest.newBuilder(uri).timeout(FETCH_TIME)
                    .header("Accept", "application/yaml, application/json").GET().build(),
                    HttpResponse.BodyHandlers.ofInputStream());
            try (InputStream in = response.body()) {
                if (response.statusCode() != 200) {
                    throw ApiException.badRequest("Field 'url': the document server answered "
                            + response.statusCode() + ".");
                }
                // the request's timeout ends with the answer's head: a server that trickles the document would hold
                // this request for as long as it likes, so the stream is closed once the fetch's time is up
                Thread watchdog = Thread.ofVirtual().start(() -> closeAt(deadline, in, cut));
                byte[] bytes;
                try {
                    bytes = in.readNBytes(MAX_DOCUMENT + 1);
                } finally {
                    watchdog.interrupt();
                }
                if (cut.get()) {
                    throw timedOut();
                }
                if (bytes.length > MAX_DOCUMENT) {
                    throw ApiException.badRequest("Field 'url': the document is larger than " + MAX_DOCUMENT + " bytes.");
                }
                return new String(bytes, StandardCharsets.UTF_8);
            }
        } catch (HttpTimeoutException e) {
            throw timedOut();
        } catch (IOException e) {
            if (cut.get()) {
                throw timedOut();
            }
            throw ApiException.badRequest("Field 'url': the document could not be fetched ("
                    + e.getClass().getSimpleName() + ").");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw ApiException.badRequest("Field 'url': interrupted while fetching the document.");
        }
    }

    private static ApiException timedOut() {
        return ApiException.badRequest("Field 'url': the document server did not send the document within "
                + FETCH_TIME.toSeconds() + " s.");
    }

    /** Closes {@code in} at {@code deadline} unless interrupted first, and says so in {@code cut}. */
    private static void closeAt(long deadline, InputStream in, AtomicBoolean cut) {
        try {
            long wait = deadline - System.nanoTime();
            if (wait > 0) {
                TimeUnit.NANOSECONDS.sleep(wait);
            }
            cut.set(true);
            in.close();
        } catch (InterruptedException | IOException e) {
            // read in time, or closed already
        }
    }
}
