package io.pylon.manager.portal;

import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.http.Method;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import io.pylon.manager.api.ApiException;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Clock;

/**
 * Which developer a Portal call acts for: the session token the Portal forwards ({@code X-Pylon-Developer-Session})
 * must be live, its developer active, and a state-changing call must carry the session's CSRF token
 * ({@code X-Pylon-Csrf}, compared in constant time). Stateless; thread-safe.
 */
public final class DeveloperAccess {
    public static final HeaderName SESSION = HeaderNames.create("X-Pylon-Developer-Session");
    public static final HeaderName CSRF = HeaderNames.create("X-Pylon-Csrf");
    /** The browser's address as the Portal saw it; only the Portal's credential reaches the calls that read it. */
    public static final HeaderName CLIENT_ADDRESS = HeaderNames.create("X-Pylon-Developer-Address");
    private static final java.util.regex.Pattern IP = java.util.regex.Pattern.compile("[0-9A-Fa-f.:]{2,45}");

    private final DeveloperStore developers;
    private final Clock clock;

    public DeveloperAccess(DeveloperStore developers, Clock clock) {
        this.developers = developers;
        this.clock = clock;
    }

    /**
     * Where a developer's call comes from: the address the Portal forwards (an IP literal), else the caller's own.
     * Sign-in throttling counts per this address, so developers behind one Portal are not throttled together.
     */
    public static String clientAddress(ServerRequest req) {
        return req.headers().first(CLIENT_ADDRESS).filter(a -> IP.matcher(a).matches())
                .orElseGet(() -> io.pylon.manager.api.SourceAddress.of(req));
    }

    public record Acting(Developer developer, String csrf, String sessionHash) {
    }

    public Acting require(ServerRequest req) {
        String token = req.headers().first(SESSION).orElse("");
        if (token.isEmpty() || token.length() > 100) {
            throw new ApiException(Status.UNAUTHORIZED_401, "no_session", "Sign in first.");
        }
        String hash = ApiKeys.sha256(token);
        DeveloperStore.Session session = developers.session(hash, clock.instant())
                .orElseThrow(() -> new ApiException(Status.UNAUTHORIZED_401, "no_session",
                        "The session ended; sign in again."));
        Developer developer = developers.byId(session.developerId())
                .filter(d -> d.status().equals("active"))
                .orElseThrow(() -> new ApiException(Status.UNAUTHORIZED_401, "no_session",
                        "The account is not active; sign in again."));
        Method method = req.prologue().method();
        if (!method.equals(Method.GET) && !method.equals(Method.HEAD)) {
            byte[] given = req.headers().first(CSRF).orElse("").getBytes(StandardCharsets.UTF_8);
            if (!MessageDigest.isEqual(given, session.csrf().getBytes(StandardCharsets.UTF_8))) {
                throw new ApiException(Status.FORBIDDEN_403, "csrf_refused",
                        "This change lacks the session's CSRF token; reload the page.");
            }
        }
        return new Acting(developer, session.csrf(), hash);
    }
}
