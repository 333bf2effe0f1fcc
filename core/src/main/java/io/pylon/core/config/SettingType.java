package io.pylon.core.config;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How a raw string becomes a typed value. A parser throws {@link IllegalArgumentException} for a bad value;
 * {@link Settings} turns that into a message naming the setting and {@link #expected()}.
 */
public record SettingType<T>(String expected, Function<String, T> parser) {

    private static final Pattern DURATION = Pattern.compile("(\\d+)(ms|s|m|h|d)");
    private static final Pattern HEAP = Pattern.compile("([0-9]+)([kKmMgG]?)");
    private static final Pattern SEGMENT = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");
    private static final Pattern QUANTITY = Pattern.compile("([0-9]{1,15})(Ki|Mi|Gi|Ti|k|M|G|T)?");

    public T parse(String raw) {
        return parser.apply(raw);
    }

    public static final SettingType<String> STRING = new SettingType<>("text", s -> s);

    public static final SettingType<String> NON_EMPTY = new SettingType<>("non-empty text", s -> {
        if (s.isEmpty()) {
            throw new IllegalArgumentException("empty");
        }
        return s;
    });

    /** A path segment: letters, digits, dot, dash, underscore. */
    public static final SettingType<String> PATH_SEGMENT = new SettingType<>(
            "a path segment of letters, digits, '.', '-' or '_' (e.g. platform)", s -> {
                if (!SEGMENT.matcher(s).matches()) {
                    throw new IllegalArgumentException(s);
                }
                return s;
            });

    public static final SettingType<Integer> PORT = new SettingType<>("a TCP port from 0 to 65535", s -> {
        int port = Integer.parseInt(s);
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException(s);
        }
        return port;
    });

    public static final SettingType<Boolean> BOOLEAN = new SettingType<>("true or false", s -> switch (s.toLowerCase(Locale.ROOT)) {
        case "true" -> true;
        case "false" -> false;
        default -> throw new IllegalArgumentException(s);
    });

    public static final SettingType<Duration> DURATION_TYPE = new SettingType<>(
            "a duration such as 500ms, 10s, 5m, 1h or 1d", SettingType::parseDuration);

    public static final SettingType<String> BIND_ADDRESS = new SettingType<>("an IP address or host name to bind to", s -> {
        try {
            InetAddress.getByName(s);
            return s;
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(s, e);
        }
    });

    public static final SettingType<Path> PATH = new SettingType<>("a file system path", s -> {
        try {
            return Path.of(s);
        } catch (InvalidPathException e) {
            throw new IllegalArgumentException(s, e);
        }
    });

    public static final SettingType<URI> HTTP_URL = new SettingType<>("an http:// or https:// URL", s -> {
        URI uri = URI.create(s);
        if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme()) || uri.getHost() == null) {
            throw new IllegalArgumentException(s);
        }
        return uri;
    });

    /** A comma-separated list; blanks are dropped. */
    public static final SettingType<List<String>> LIST = new SettingType<>("a comma-separated list", s ->
            Arrays.stream(s.split(",")).map(String::strip).filter(x -> !x.isEmpty()).toList());

    /**
     * A JVM heap size as {@code -Xmx} takes it (a number of bytes, or of k, m or g), from 32 MiB to 1024 GiB; the value
     * is in MiB. scripts/pod-jvm.sh checks the same before it starts a pod's JVM.
     */
    public static final SettingType<Long> HEAP_SIZE = new SettingType<>(
            "a heap size from 32m to 1024g such as 96m, 512m or 2g", s -> {
        Matcher m = HEAP.matcher(s);
        if (!m.matches() || m.group(1).length() > 13) {
            throw new IllegalArgumentException(s);
        }
        long n = Long.parseLong(m.group(1));
        long mib = switch (m.group(2).toLowerCase(Locale.ROOT)) {
            case "g" -> n * 1024;
            case "m" -> n;
            case "k" -> n / 1024;
            default -> n / (1024 * 1024);
        };
        if (mib < 32 || mib > 1024 * 1024) {
            throw new IllegalArgumentException(s);
        }
        return mib;
    });

    public static SettingType<Integer> intRange(int min, int max) {
        return new SettingType<>("a whole number from " + min + " to " + max, s -> {
            int value = Integer.parseInt(s);
            if (value < min || value > max) {
                throw new IllegalArgumentException(s);
            }
            return value;
        });
    }

    /** A duration no shorter than {@code min} (given in milliseconds in the description). */
    public static SettingType<Duration> durationAtLeast(Duration min) {
        return new SettingType<>("a duration of at least " + min.toMillis() + "ms such as 500ms, 10s, 5m or 1h", s -> {
            Duration value = parseDuration(s);
            if (value.compareTo(min) < 0) {
                throw new IllegalArgumentException(s);
            }
            return value;
        });
    }

    public static SettingType<Long> longRange(long min, long max) {
        return new SettingType<>("a whole number from " + min + " to " + max, s -> {
            long value = Long.parseLong(s);
            if (value < min || value > max) {
                throw new IllegalArgumentException(s);
            }
            return value;
        });
    }

    /**
     * A size in bytes written as a Kubernetes quantity ({@code 512Mi}, {@code 4Gi}, {@code 500M} or a plain number of
     * bytes), so that a manifest can give the same value as an emptyDir's {@code sizeLimit}; the value is in bytes.
     */
    public static SettingType<Long> byteSize(long min, long max) {
        return new SettingType<>("a size in bytes from " + min + " to " + max + ", a whole number or with a suffix "
                + "Ki, Mi, Gi, Ti (powers of 1024) or k, M, G, T (powers of 1000), such as 512Mi or 4Gi", s -> {
            Matcher m = QUANTITY.matcher(s.strip());
            if (!m.matches()) {
                throw new IllegalArgumentException(s);
            }
            long unit = switch (m.group(2) == null ? "" : m.group(2)) {
                case "Ki" -> 1L << 10;
                case "Mi" -> 1L << 20;
                case "Gi" -> 1L << 30;
                case "Ti" -> 1L << 40;
                case "k" -> 1_000L;
                case "M" -> 1_000_000L;
                case "G" -> 1_000_000_000L;
                case "T" -> 1_000_000_000_000L;
                default -> 1L;
            };
            long value = Math.multiplyExact(Long.parseLong(m.group(1)), unit);
            if (value < min || value > max) {
                throw new IllegalArgumentException(s);
            }
            return value;
        });
    }

    public static SettingType<Double> doubleRange(double min, double max) {
        return new SettingType<>("a number from " + min + " to " + max, s -> {
            double value = Double.parseDouble(s);
            if (!(value >= min && value <= max)) {
                throw new IllegalArgumentException(s);
            }
            return value;
        });
    }

    public static SettingType<Double> fraction() {
        return new SettingType<>("a number from 0 to 1 (e.g. 0.9)", s -> {
            double value = Double.parseDouble(s);
            if (!(value >= 0 && value <= 1)) {
                throw new IllegalArgumentException(s);
            }
            return value;
        });
    }

    public static <E extends Enum<E>> SettingType<E> oneOf(Class<E> type) {
        E[] values = type.getEnumConstants();
        String names = String.join(", ", Arrays.stream(values).map(v -> v.name().toLowerCase(Locale.ROOT)).toList());
        return new SettingType<>("one of " + names, s -> Enum.valueOf(type, s.toUpperCase(Locale.ROOT).replace('-', '_')));
    }

    static Duration parseDuration(String s) {
        Matcher m = DURATION.matcher(s.toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new IllegalArgumentException(s);
        }
        long n = Long.parseLong(m.group(1));
        return switch (m.group(2)) {
            case "ms" -> Duration.ofMillis(n);
            case "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            case "h" -> Duration.ofHours(n);
            default -> Duration.ofDays(n);
        };
    }
}
