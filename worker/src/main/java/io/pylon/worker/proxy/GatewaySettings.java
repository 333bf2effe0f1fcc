package io.pylon.worker.proxy;

import io.pylon.core.config.Setting;
import io.pylon.core.config.SettingType;
import io.pylon.gateway.model.TrustedProxies;

import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** How the gateway treats what clients send: whose forwarding headers it trusts, how large a body it takes. */
public final class GatewaySettings {
    private static final Pattern SIZE = Pattern.compile("([0-9]{1,12})([kKmMgG]?)");

    private GatewaySettings() {
    }

    /** A size in bytes, or in k, m or g (powers of 1024). */
    static final SettingType<Long> BYTE_SIZE = new SettingType<>("a size in bytes, or with k, m or g (e.g. 128m)", s -> {
        Matcher m = SIZE.matcher(s.strip());
        if (!m.matches()) {
            throw new IllegalArgumentException(s);
        }
        long value = Long.parseLong(m.group(1));
        return switch (m.group(2).toLowerCase(Locale.ROOT)) {
            case "k" -> value << 10;
            case "m" -> value << 20;
            case "g" -> value << 30;
            default -> value;
        };
    });

    public static final Setting<TrustedProxies> TRUSTED_PROXIES = Setting.of("pylon.worker.trusted-proxies",
            "Client addresses (CIDR blocks) whose X-Forwarded-*, Forwarded, X-Real-IP and X-Request-Id headers are kept; "
                    + "from any other client they are replaced by what the Worker saw. Unset: trust no one.",
            null, TrustedProxies.SETTING_TYPE);

    public static final Setting<Long> MAX_REQUEST_BODY = Setting.of("pylon.worker.max-request-body",
            "Largest request body a route takes unless its maxRequestBody says otherwise (chunked bodies are counted as "
                    + "they stream); beyond it: 413. 0: no limit.", 128L << 20, BYTE_SIZE);

    public static final Setting<Boolean> ACCESS_LOG = Setting.of("pylon.worker.access-log",
            "Whether the gateway writes a JSON line per proxied request (time, client, method, path without the query, "
                    + "protocol, host, status, bytes sent, ms, X-Request-Id) to the pod's standard output, beside its "
                    + "log lines (text). "
                    + "Lines the output cannot take at once are dropped and counted "
                    + "(pylon_worker_access_log_dropped_total).", false, SettingType.BOOLEAN);

    public static final Setting<Boolean> REQUEST_ID = Setting.of("pylon.worker.request-id",
            "Whether the gateway gives each proxied request an X-Request-Id (a random UUID; a trusted proxy's own "
                    + "well-formed value is kept), sent to the upstream, returned to the client, also on the gateway's "
                    + "own answers, and written to the access log. Off: a client's X-Request-Id passes unchanged.",
            true, SettingType.BOOLEAN);

    /** The trusted proxies {@code settings} name; none when unset. */
    public static TrustedProxies trustedProxies(io.pylon.core.config.Settings settings) {
        TrustedProxies trusted = settings.find(TRUSTED_PROXIES);
        return trusted == null ? TrustedProxies.NONE : trusted;
    }

    public static List<Setting<?>> all() {
        return List.of(TRUSTED_PROXIES, MAX_REQUEST_BODY, ACCESS_LOG, REQUEST_ID);
    }
}
