package io.pylon.worker.listener;

import io.pylon.core.config.Setting;
import io.pylon.core.config.SettingType;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/** The protocols of the Worker's client listener: HTTP/2 and TLS. */
public final class ListenerSettings {
    private ListenerSettings() {
    }

    public static final Setting<Boolean> HTTP2 = Setting.of("pylon.worker.http2.enabled",
            "HTTP/2 to clients: h2c (prior knowledge or Upgrade: h2c) on a plain listener, h2 chosen by ALPN under TLS.",
            true, SettingType.BOOLEAN);

    public static final Setting<Integer> HTTP2_MAX_STREAMS = Setting.of("pylon.worker.http2.max-concurrent-streams",
            "Most streams (requests) one HTTP/2 client connection may have open at once (SETTINGS_MAX_CONCURRENT_STREAMS).",
            128, SettingType.intRange(1, 10_000));

    public static final Setting<Path> TLS_CERTIFICATE = Setting.of("pylon.worker.tls.certificate-file",
            "PEM file with the listener's certificate chain, leaf first. Set with tls.key-file, the listener is TLS only.",
            null, SettingType.PATH);

    public static final Setting<Path> TLS_KEY = Setting.of("pylon.worker.tls.key-file",
            "PEM file with the private key of tls.certificate-file (PKCS#8 or PKCS#1, RSA or EC, unencrypted).",
            null, SettingType.PATH);

    public static final Setting<Duration> TLS_RELOAD_INTERVAL = Setting.of("pylon.worker.tls.reload-interval",
            "How often TLS files are read again (the listener's certificate and key, the proxies' upstreamTls files); "
                    + "a valid change serves new handshakes.",
            Duration.ofSeconds(10), SettingType.durationAtLeast(Duration.ofMillis(100)));

    public static List<Setting<?>> all() {
        return List.of(HTTP2, HTTP2_MAX_STREAMS, TLS_CERTIFICATE, TLS_KEY, TLS_RELOAD_INTERVAL);
    }
}
