package io.pylon.manager.auth;

import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.pylon.core.http.ErrorBody;
import io.pylon.core.http.ErrorHandling;
import io.pylon.core.http.Json;
import io.pylon.core.http.Routes;
import io.pylon.manager.api.ApiException;
import io.pylon.manager.api.BearerAuth;
import io.pylon.manager.api.RequestBodies;
import io.pylon.manager.api.SourceAddress;
import io.pylon.manager.audit.AuditLog;

import java.lang.System.Logger.Level;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * {@code POST /apiops/auth/token}: the OAuth 2.0 client-credentials exchange of a username and password for an
 * access token. Credentials come in the form body ({@code client_id}, {@code client_secret}) or in HTTP Basic
 * ({@code client_secret_basic}, URL-encoded parts as RFC 6749 section 2.3.1 says), not both.
 */
public final class TokenEndpoint {
    private static final System.Logger LOG = System.getLogger(TokenEndpoint.class.getName());
    private static final String GRANT = "client_credentials";

    private final Accounts accounts;
    private final TokenService tokens;
    private final AuditLog audit;

    public TokenEndpoint(Accounts accounts, TokenService tokens, AuditLog audit) {
        this.accounts = accounts;
        this.tokens = tokens;
        this.audit = audit;
    }

    public void register(Routes routes) {
        routes.post("/apiops/auth/token", this::token);
    }

    /** {@code basic}: they came in the Authorization header (client_secret_basic), not in the form body. */
    private record Credentials(String username, String password, boolean basic) {
    }

    void token(ServerRequest req, ServerResponse res) {
        res.header(HeaderNames.CACHE_CONTROL, "no-store");
        res.header(HeaderNames.PRAGMA, "no-cache");
        try {
            Map<String, String> form = RequestBodies.form(req);
            String grant = form.get("grant_type");
            if (grant == null || grant.isEmpty()) {
                throw ApiException.badRequest("Missing form field 'grant_type' (must be client_credentials).");
            }
            if (!GRANT.equals(grant)) {
                throw new ApiException(Status.BAD_REQUEST_400, "unsupported_grant_type",
                        "The grant type must be client_credentials.");
            }
            Credentials credentials = credentials(req, form);
            String source = SourceAddress.of(req);
            Optional<User> user = accounts.login(credentials.username(), credentials.password(), source);
            if (user.isEmpty()) {
                // RFC 6749 5.2: the challenge only answers a client that authenticated with the Authorization header;
                // sent to a form's fetch it makes a browser raise its own Basic login prompt over the page
                if (credentials.basic()) {
                    res.header(HeaderNames.WWW_AUTHENTICATE, "Basic realm=\"" + BearerAuth.REALM + "\"");
                }
                ErrorBody.send(res, Status.UNAUTHORIZED_401, "unauthorized_client", "Bad credentials");
                return;
            }
            TokenService.Issued issued = tokens.issueAccessToken(user.get().username());
            audit.record(user.get().username(), "token.issued", "token:" + issued.id(), source, "success");
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("access_token", issued.value());
            body.put("token_type", "Bearer");
            body.put("expires_in", tokens.accessLifetimeSeconds());
            Json.send(res, body);
        } catch (ApiException e) {
            e.send(res);
        } catch (RuntimeException e) {
            if (ErrorHandling.isMalformedBody(e)) {
                throw e; // a body the client broke off or mis-chunked: the edge answers 400 and logs it at FINE
            }
            LOG.log(Level.ERROR, "Token request failed: " + e.getClass().getName());
            ErrorBody.send(res, Status.INTERNAL_SERVER_ERROR_500, "server_error",
                    "An unexpected error occurred while issuing the token.");
        }
    }

    private static Credentials credentials(ServerRequest req, Map<String, String> form) {
        Optional<Credentials> basic = basic(req);
        boolean inForm = form.containsKey("client_id") || form.containsKey("client_secret");
        if (basic.isPresent() && inForm) {
            throw ApiException.badRequest("Send the credentials either with HTTP Basic or in the form body, not both.");
        }
        if (basic.isPresent()) {
            return basic.get();
        }
        String id = form.get("client_id");
        String secret = form.get("client_secret");
        if (id == null || id.isEmpty()) {
            throw ApiException.badRequest("Missing form field 'client_id' (the username).");
        }
        if (secret == null || secret.isEmpty()) {
            throw ApiException.badRequest("Missing form field 'client_secret' (the password).");
        }
        return new Credentials(id, secret, false);
    }

    private static Optional<Credentials> basic(ServerRequest req) {
        Optional<String> header = req.headers().first(HeaderNames.AUTHORIZATION);
        if (header.isEmpty()) {
            return Optional.empty();
        }
        String value = header.get();
        if (!value.regionMatches(true, 0, "Basic ", 0, 6)) {
            throw ApiException.badRequest("The Authorization header of a token request must use the Basic scheme.");
        }
        String decoded;
        try {
            decoded = new String(Base64.getDecoder().decode(value.substring(6).strip()), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest("The Basic credentials are not valid Base64.");
        }
        int colon = decoded.indexOf(':');
        if (colon <= 0 || colon == decoded.length() - 1) {
            throw ApiException.badRequest("The Basic credentials must be username:password.");
        }
        try {
            return Optional.of(new Credentials(URLDecoder.decode(decoded.substring(0, colon), StandardCharsets.UTF_8),
                    URLDecoder.decode(decoded.substring(colon + 1), StandardCharsets.UTF_8), true));
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest("The Basic credentials are not valid URL encoding.");
        }
    }
}
