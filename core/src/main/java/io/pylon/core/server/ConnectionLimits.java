package io.pylon.core.server;

import io.pylon.core.config.Setting;
import io.pylon.core.config.SettingType;
import io.pylon.core.config.Settings;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;

/**
 * The limits a pod's listener holds against clients that open many connections, send slowly or do not read, and the
 * bounds of its lingering close (what it reads and discards after an answer that ends the connection). Defaults
 * follow nginx (client_header_timeout 60s, client_body_timeout 60s, send_timeout 60s, keepalive_timeout 75s,
 * lingering_time 30s, lingering_timeout 5s); nginx has no byte bound on a lingering close, the pod adds one. The
 * request line and header block bounds are what the parser takes.
 */
public record ConnectionLimits(int maxConnections, Duration idleTimeout, Duration headerTimeout, Duration bodyTimeout,
                               Duration sendTimeout, Duration lingeringTime, Duration lingeringTimeout,
                               long lingeringBytes, int maxRequestLine, int maxHeaderSize) {
    /** Used when the descriptor limit cannot be read (not Linux/Unix). */
    static final int DEFAULT_MAX_CONNECTIONS = 10_000;

    public static final Setting<Integer> MAX_CONNECTIONS = Setting.of("pylon.server.max-connections",
            "Most client connections the pod holds at once; further ones wait in the listen backlog until one closes. "
                    + "Default: 10000, or half of what the descriptor limit leaves after a reserve for the JVM's own "
                    + "files (half the limit, at most 512), whichever is lower (a proxied request holds two "
                    + "descriptors), so accept never runs out of descriptors.",
            null, SettingType.intRange(1, 1_000_000));

    public static final Setting<Duration> IDLE_TIMEOUT = Setting.of("pylon.server.idle-timeout",
            "How long a connection may wait for the first byte of its next request (keep-alive) before it is closed "
                    + "(an HTTP/2 connection: with no request in flight, told GOAWAY).",
            Duration.ofSeconds(75), SettingType.DURATION_TYPE);

    public static final Setting<Duration> HEADER_TIMEOUT = Setting.of("pylon.server.header-timeout",
            "How long a client may take from the first byte of a request to the end of its headers before the "
                    + "connection is closed (HTTP/2: how long a header block, or a frame other than DATA, may stay "
                    + "unfinished).", Duration.ofSeconds(60), SettingType.DURATION_TYPE);

    public static final Setting<Duration> BODY_TIMEOUT = Setting.of("pylon.server.body-timeout",
            "How long the pod waits for the next bytes of a request body it is reading before the connection is closed "
                    + "(HTTP/1.1) or the request is answered 408 (an HTTP/2 stream; the connection serves on).",
            Duration.ofSeconds(60), SettingType.DURATION_TYPE);

    public static final Setting<Duration> SEND_TIMEOUT = Setting.of("pylon.server.send-timeout",
            "How long one write to a client may wait before the connection is closed (nginx send_timeout): a write "
                    + "waits while the client takes nothing (its receive window and the socket's buffer are full). "
                    + "Timed per write, not per answer: the gateway streams in writes of 16 KiB, so only a client "
                    + "reading slower than 16 KiB per timeout is cut.", Duration.ofSeconds(60),
            SettingType.DURATION_TYPE);

    public static final Setting<Duration> LINGERING_TIME = Setting.of("pylon.server.lingering-time",
            "After an answer that ends the connection while the client may still be sending (a 413 by the declared "
                    + "length, a 401 before the body is read), the pod half-closes and reads and discards what comes "
                    + "for at most this long before closing, so that the client's unread bytes do not reset the "
                    + "connection and destroy the answer (nginx lingering_time).", Duration.ofSeconds(30),
            SettingType.DURATION_TYPE);

    public static final Setting<Duration> LINGERING_TIMEOUT = Setting.of("pylon.server.lingering-timeout",
            "During a lingering close, how long the pod waits for more bytes from the client before closing "
                    + "(nginx lingering_timeout).", Duration.ofSeconds(5), SettingType.DURATION_TYPE);

    public static final Setting<Long> LINGERING_BYTES = Setting.of("pylon.server.lingering-bytes",
            "During a lingering close, the most bytes the pod reads and discards before closing; 0 closes at once "
                    + "(the client's unread bytes then reset the connection).", 1L << 30,
            SettingType.byteSize(0, 1L << 40));

    public static final Setting<Long> MAX_REQUEST_LINE = Setting.of("pylon.server.max-request-line",
            "The longest request line (method, target with its query, protocol) the pod takes; a longer one is "
                    + "answered 414 (nginx: large_client_header_buffers, 8k).", (long) PodServer.MAX_REQUEST_LINE,
            SettingType.byteSize(1024, 64 * 1024));

    public static final Setting<Long> MAX_HEADER_SIZE = Setting.of("pylon.server.max-header-size",
            "The largest request header block the pod takes (each field's name and value; HTTP/2: the header list); "
                    + "a larger one is answered 431. Raise it for large cookies or tokens: a connection may hold four "
                    + "times this while it reads a head.", (long) PodServer.MAX_HEADERS,
            SettingType.byteSize(4 * 1024, 256 * 1024));

    public static List<Setting<?>> settings() {
        return List.of(MAX_CONNECTIONS, IDLE_TIMEOUT, HEADER_TIMEOUT, BODY_TIMEOUT, SEND_TIMEOUT, LINGERING_TIME,
                LINGERING_TIMEOUT, LINGERING_BYTES, MAX_REQUEST_LINE, MAX_HEADER_SIZE);
    }

    public static ConnectionLimits from(Settings settings) {
        Integer configured = settings.find(MAX_CONNECTIONS);
        int max = configured != null ? configured : defaultMaxConnections(descriptorLimit());
        return new ConnectionLimits(max, positive(settings, IDLE_TIMEOUT), positive(settings, HEADER_TIMEOUT),
                positive(settings, BODY_TIMEOUT), positive(settings, SEND_TIMEOUT), positive(settings, LINGERING_TIME),
                positive(settings, LINGERING_TIMEOUT), settings.get(LINGERING_BYTES),
                settings.get(MAX_REQUEST_LINE).intValue(), settings.get(MAX_HEADER_SIZE).intValue());
    }

    static int defaultMaxConnections(OptionalLong descriptorLimit) {
        if (descriptorLimit.isEmpty()) {
            return DEFAULT_MAX_CONNECTIONS;
        }
        long limit = descriptorLimit.getAsLong();
        // the JVM's own descriptors (jars on the class path, logs, the database, the grid) come first
        long reserve = Math.min(512, limit / 2);
        return (int) Math.max(1, Math.min(DEFAULT_MAX_CONNECTIONS, (limit - reserve) / 2));
    }

    /** The process's descriptor limit (HotSpot raised the soft limit to the hard one at start, -XX:+MaxFDLimit). */
    public static OptionalLong descriptorLimit() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.UnixOperatingSystemMXBean unix) {
            return OptionalLong.of(unix.getMaxFileDescriptorCount());
        }
        return OptionalLong.empty();
    }

    private static Duration positive(Settings settings, Setting<Duration> setting) {
        Duration value = settings.get(setting);
        if (value.isZero() || value.isNegative()) {
            throw new io.pylon.core.config.InvalidSettingException(setting.key() + " must be longer than 0ms");
        }
        return value;
    }
}
