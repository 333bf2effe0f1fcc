package io.pylon.worker.proxy;

import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.http.Headers;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.pylon.gateway.model.Cors;
import io.pylon.gateway.model.IpRules;
import io.pylon.gateway.model.KeyAuth;
import io.pylon.gateway.model.Policies;
import io.pylon.worker.keys.KeySet;
import org.jspecify.annotations.Nullable;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.List;
import java.util.Optional;

/**
 * The policy stage before rate limits, in this order: IP rules (403), the CORS preflight (answered here, never
 * forwarded), key auth (401 without a key). Stateless; called concurrently.
 *
 * <p>Key auth fails closed: a request without the key header, or with a key the {@link KeySet} does not hold, is
 * refused with 401; a key whose application has no subscription to the proxy, or one that is pending, suspended or
 * revoked, with 403; and a request with a key is refused with 503 until a key set arrived from the Manager, so a
 * proxy marked {@code keyAuth} is never served open.
 */
final class AccessPolicies {
    private static final GatewayError FORBIDDEN_IP = new GatewayError(Status.FORBIDDEN_403, "forbidden",
            "Requests from this address are not allowed on this API.", 0);
    private static final GatewayError NO_KEY = new GatewayError(Status.UNAUTHORIZED_401, "unauthorized",
            "This API requires an API key.", 0);
    private static final GatewayError NO_KEY_STORE = new GatewayError(Status.SERVICE_UNAVAILABLE_503,
            "key_store_unavailable", "API keys cannot be verified by this gateway yet.", 0);

    private static final GatewayError UNKNOWN_KEY = new GatewayError(Status.UNAUTHORIZED_401, "invalid_api_key",
            "The API key is unknown or revoked.", 0);
    private static final GatewayError NOT_SUBSCRIBED = new GatewayError(Status.FORBIDDEN_403, "not_subscribed",
            "The API key's application has no subscription to this API.", 0);
    private static final GatewayError PENDING = new GatewayError(Status.FORBIDDEN_403, "subscription_pending",
            "The API key's subscription to this API waits for approval.", 0);
    private static final GatewayError SUSPENDED = new GatewayError(Status.FORBIDDEN_403, "subscription_suspended",
            "The API key's subscription to this API is suspended.", 0);
    private static final GatewayError REVOKED = new GatewayError(Status.FORBIDDEN_403, "subscription_revoked",
            "The API key's subscription to this API is revoked.", 0);

    private static final HeaderName DEFAULT_KEY_HEADER = HeaderNames.create(KeyAuth.DEFAULT_HEADER);

    private AccessPolicies() {
    }

    /**
     * What the stage decided: answered here (refused, or a preflight), or passed, with the key's application and
     * plan when the proxy has key auth.
     */
    record Admission(boolean answered, KeySet.@Nullable Check key) {
        static final Admission ANSWERED = new Admission(true, null);
        static final Admission OPEN = new Admission(false, null);
    }

    static Admission admit(String proxy, Policies policies, KeySet keys, String method, ServerRequest req,
                           ServerResponse res) {
        GatewayError ip = ipRefusal(policies.ipRules(), req.remotePeer().address(), req.headers());
        if (ip != null) {
            ip.send(res);
            return Admission.ANSWERED;
        }
        Cors cors = policies.cors();
        if (cors != null && method.equals("OPTIONS")) {
            Optional<String> origin = req.headers().first(HeaderNames.ORIGIN);
            Optional<String> requested = req.headers().first(HeaderNames.ACCESS_CONTROL_REQUEST_METHOD);
            if (origin.isPresent() && requested.isPresent()) {
                if (cors.allowsOrigin(origin.get()) && cors.allowsMethod(requested.get())) {
                    CorsHeaders.preflight(cors, origin.get(), requested.get(), req, res);
                    res.status(Status.NO_CONTENT_204).send();
                } else {
                    new GatewayError(Status.FORBIDDEN_403, "cors_refused", "This origin or method is not allowed "
                            + "by the API's CORS policy.", 0).send(res);
                }
                return Admission.ANSWERED;
            }
        }
        if (policies.keyAuth() == null) {
            return Admission.OPEN;
        }
        KeySet.Check check = keyCheck(policies.keyAuth(), proxy, keys, req.headers());
        GatewayError key = keyRefusal(check);
        if (key != null) {
            if (cors != null) {
                // a browser reads the refusal ("invalid_api_key") only when the origin is admitted on it too
                CorsHeaders.response(cors, req.headers().first(HeaderNames.ORIGIN).orElse(null), res.headers());
            }
            key.send(res);
            return Admission.ANSWERED;
        }
        return new Admission(false, check);
    }

    /**
     * The same IP rules and key auth for a request that is not routed (a WebSocket upgrade, taken on the connection
     * before routing; it is a GET, so no CORS preflight). Null when it may pass.
     */
    static @Nullable GatewayError refusal(String proxy, Policies policies, KeySet keys, SocketAddress peer, Headers headers) {
        GatewayError ip = ipRefusal(policies.ipRules(), peer, headers);
        if (ip != null || policies.keyAuth() == null) {
            return ip;
        }
        return keyRefusal(keyCheck(policies.keyAuth(), proxy, keys, headers));
    }

    private static @Nullable GatewayError ipRefusal(IpRules ip, SocketAddress peerAddress, Headers headers) {
        if (ip.isEmpty()) {
            return null;
        }
        InetAddress peer = peerAddress instanceof InetSocketAddress inet ? inet.getAddress() : null;
        if (peer == null) {
            return FORBIDDEN_IP;
        }
        List<String> forwarded = headers.all(HeaderNames.X_FORWARDED_FOR, List::of);
        InetAddress client = ip.clientAddress(peer, forwarded.isEmpty() ? null : String.join(",", forwarded));
        return ip.permits(client) ? null : FORBIDDEN_IP;
    }

    /** The check of the key of a request {@link #refusal} let pass; null when the proxy has no key auth. */
    static KeySet.@Nullable Check admittedKey(String proxy, Policies policies, KeySet keys, Headers headers) {
        return policies.keyAuth() == null ? null : keyCheck(policies.keyAuth(), proxy, keys, headers);
    }

    /** Null when no key was presented. */
    private static KeySet.@Nullable Check keyCheck(KeyAuth keyAuth, String proxy, KeySet keys, Headers headers) {
        String key = headers.first(keyHeader(keyAuth.header())).orElse("");
        return key.isBlank() ? null : keys.check(proxy, key.strip());
    }

    // nearly every proxy reads the default header: its name is built once, not per request
    private static HeaderName keyHeader(String header) {
        return header.equals(KeyAuth.DEFAULT_HEADER) ? DEFAULT_KEY_HEADER : HeaderNames.create(header);
    }

    private static @Nullable GatewayError keyRefusal(KeySet.@Nullable Check check) {
        if (check == null) {
            return NO_KEY;
        }
        return switch (check.verdict()) {
            case ALLOWED -> null;
            case UNKNOWN -> UNKNOWN_KEY;
            case NOT_SUBSCRIBED -> NOT_SUBSCRIBED;
            case PENDING -> PENDING;
            case SUSPENDED -> SUSPENDED;
            case REVOKED -> REVOKED;
            case UNAVAILABLE -> NO_KEY_STORE;
        };
    }
}
