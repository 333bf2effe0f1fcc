package io.pylon.distribution.cli;

import com.fasterxml.jackson.databind.JsonNode;
import org.jspecify.annotations.Nullable;

import java.io.InputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Calls to one Manager with a context's Bearer token, mapping its error answers to exit codes: 401 and 403 are
 * authentication problems (3), everything else that is not 2xx a failure (1) with the Manager's own description.
 */
public final class ManagerClient {
    static final Duration CALL_TIMEOUT = Duration.ofSeconds(60);
    private static final String FORM = "application/x-www-form-urlencoded";

    private final String base;
    private final @Nullable String token;
    private final @Nullable String contextName;

    public ManagerClient(String managerUrl, @Nullable String token, @Nullable String contextName) {
        this.base = managerUrl.endsWith("/") ? managerUrl.substring(0, managerUrl.length() - 1) : managerUrl;
        this.token = token;
        this.contextName = contextName;
    }

    public String baseUrl() {
        return base;
    }

    public JsonNode get(String path) {
        return checked(HttpJson.send(request(path, CALL_TIMEOUT)));
    }

    /** GET without mapping a non-2xx answer to an exception (a diagnostics call answers 429 or 404 for reasons). */
    public HttpJson.Answer getAnswer(String path) {
        HttpJson.Answer answer = HttpJson.send(request(path, CALL_TIMEOUT));
        if (answer.status() == 401 || answer.status() == 403) {
            checked(answer);
        }
        return answer;
    }

    public JsonNode send(String method, String path, @Nullable JsonNode body) {
        byte[] bytes = body == null ? null : body.toString().getBytes(StandardCharsets.UTF_8);
        return checked(HttpJson.send(request(path, CALL_TIMEOUT).send(method, bytes, "application/json")));
    }

    /**
     * A call with a body of any content type (a YAML definition), extra headers ({@code If-Match}) and its own
     * timeout (a deploy that waits for pods); non-2xx mapped as for every call.
     */
    public JsonNode send(String method, String path, byte[] body, String contentType, Duration timeout,
                         Map<String, String> headers) {
        HttpCall call = request(path, timeout);
        for (Map.Entry<String, String> header : headers.entrySet()) {
            call = call.header(header.getKey(), header.getValue());
        }
        return checked(HttpJson.send(call.send(method, body, contentType)));
    }

    public JsonNode postForm(String path, Map<String, String> form) {
        return checked(HttpJson.send(request(path, CALL_TIMEOUT).send("POST", form(form), FORM)));
    }

    /** An open streamed answer (a heap dump); 2xx only, the caller closes the body. */
    public HttpJson.Streamed stream(String path, Duration timeout) {
        HttpJson.Streamed response = HttpJson.stream(request(path, timeout));
        if (response.status() / 100 != 2) {
            byte[] body;
            try (InputStream in = response.body()) {
                body = in.readNBytes(64 * 1024);
            } catch (java.io.IOException e) {
                body = new byte[0];
            }
            checked(new HttpJson.Answer(response.status(), HttpJson.parse(body)));
        }
        return response;
    }

    /** {@code POST /apiops/auth/token} with client credentials: the Manager's token answer, or exit 3 when refused. */
    public static JsonNode signIn(String managerUrl, String username, String password) {
        ManagerClient anonymous = new ManagerClient(managerUrl, null, null);
        HttpJson.Answer answer = HttpJson.send(anonymous.request(CliPaths.token(), CALL_TIMEOUT).send("POST",
                form(Map.of("grant_type", "client_credentials", "client_id", username, "client_secret", password)), FORM));
        if (answer.status() == 401) {
            throw CliException.auth("The Manager at " + anonymous.base + " refused the username or password.");
        }
        if (!answer.ok() || !answer.body().path("access_token").isTextual()) {
            throw CliException.failed("The Manager at " + anonymous.base + " did not issue a token: "
                    + Text.printable(answer.description()) + ".");
        }
        return answer.body();
    }

    private HttpCall request(String path, Duration timeout) {
        HttpCall call = HttpCall.get(URI.create(base + path), timeout);
        return token == null ? call : call.header("Authorization", "Bearer " + token);
    }

    private JsonNode checked(HttpJson.Answer answer) {
        if (answer.ok()) {
            return answer.body();
        }
        String error = answer.body().path("error").asText("");
        if (answer.status() == 401) {
            throw CliException.auth(("invalid_token".equals(error) ? "The session of context '" + contextName
                    + "' has expired or was revoked" : "The Manager asks for a sign-in")
                    + ": log in again with `pylon login " + base + "`.");
        }
        if (answer.status() == 403) {
            String why = Text.printable(answer.description());
            throw CliException.auth("Not allowed: " + why + (why.contains(" role") ? "" : " (your role does not allow it)."));
        }
        throw CliException.failed(Text.printable(answer.description()) + " (HTTP " + answer.status()
                + (error.isEmpty() ? "" : ", " + Text.printable(error)) + ")");
    }

    private static byte[] form(Map<String, String> fields) {
        return fields.entrySet().stream()
                .map(e -> URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8) + "=" + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
                .collect(Collectors.joining("&")).getBytes(StandardCharsets.UTF_8);
    }
}
