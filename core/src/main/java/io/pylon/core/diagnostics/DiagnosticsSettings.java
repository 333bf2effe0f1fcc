package io.pylon.core.diagnostics;

import io.pylon.core.config.Setting;
import io.pylon.core.config.SettingType;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/** Settings of pods that serve diagnostics (Worker and Cache). */
public final class DiagnosticsSettings {
    private DiagnosticsSettings() {
    }

    public static final Setting<Integer> HEAVY_CONCURRENCY = Setting.of("pylon.diagnostics.heavy-concurrency",
            "How many thread dumps and 'all' answers one pod builds at the same time; more callers get 429 with "
                    + "Retry-After (heap dumps are always one at a time).", 2, SettingType.intRange(1, 64));

    public static final Setting<List<Pattern>> MASK_KEYS = Setting.of("pylon.diagnostics.env.mask-keys",
            "Extra key patterns whose values 'env' diagnostics mask: comma-separated regular expressions, "
                    + "case-insensitive, matched anywhere in the key (besides the built-in ones: password, passwd, passphrase, "
                    + "secret, credential anywhere; token, key, apikey, private, auth, authorization as a whole segment of the "
                    + "name; pw, pwd, pass as its last segment).", List.of(), patterns());

    public static final Setting<Path> DUMP_DIR = Setting.of("pylon.diagnostics.dump-dir",
            "Directory for the temporary files of heap and thread dumps (deleted after each answer; leftovers at "
                    + "start-up). Default: dumps under the data directory.", null, SettingType.PATH);

    public static final Setting<Duration> HEAP_DUMP_STALL_TIMEOUT = Setting.of("pylon.diagnostics.heap-dump.stall-timeout",
            "A heap dump download during which the client reads nothing for this long is aborted: the connection is "
                    + "closed, the file deleted and the next heap dump allowed.", Duration.ofSeconds(60),
            SettingType.durationAtLeast(Duration.ofMillis(100)));

    public static final Setting<Integer> HISTOGRAM_FLAG_FACTOR = Setting.of("pylon.diagnostics.histogram.flag-factor",
            "A 'histogram' broadcast flags a pod whose bytes of a class exceed this many times the fleet median of that "
                    + "class (and at least 1 MiB).", 3, SettingType.intRange(2, 1000));

    public static final Setting<java.time.Duration> JFR_RETENTION = Setting.of("pylon.diagnostics.jfr.retention",
            "How long a finished flight recording stays in the recordings folder of the data directory when nobody "
                    + "downloads it (a download removes it at once).", java.time.Duration.ofHours(1), SettingType.DURATION_TYPE);

    public static final Setting<Integer> HEAVY_RATE_PER_POD = Setting.of("pylon.diagnostics.heavy-rate.per-pod",
            "Heavy diagnostics calls (histogram with live=true, which forces a full collection; thread dumps; hot "
                    + "threads; starting a recording; a heavy 'all') one pod builds per minute, from all callers; more "
                    + "get 429 with Retry-After.", 30, SettingType.intRange(1, 100000));

    public static final Setting<Integer> HEAVY_RATE_PER_CALLER = Setting.of("pylon.diagnostics.heavy-rate.per-caller",
            "Heavy diagnostics calls one pod builds per minute for one caller (the Manager's user that asked, else the "
                    + "calling address); more get 429 with Retry-After.", 10, SettingType.intRange(1, 100000));

    public static final Setting<Integer> LOGGERS_MAX_OVERRIDES = Setting.of("pylon.diagnostics.loggers.max-overrides",
            "Most temporary log levels ('loggers' PUT) one pod holds at once; one more is refused with 429 until one "
                    + "reverts (DELETE loggers?all=true reverts every one).", 100, SettingType.intRange(1, 10000));

    public static List<Setting<?>> all() {
        return List.of(HEAVY_CONCURRENCY, HEAVY_RATE_PER_POD, HEAVY_RATE_PER_CALLER, LOGGERS_MAX_OVERRIDES, MASK_KEYS, DUMP_DIR, HEAP_DUMP_STALL_TIMEOUT, HISTOGRAM_FLAG_FACTOR, JFR_RETENTION);
    }

    private static SettingType<List<Pattern>> patterns() {
        return new SettingType<>("a comma-separated list of regular expressions", s -> {
            try {
                return Arrays.stream(s.split(",")).map(String::strip).filter(x -> !x.isEmpty())
                        .map(x -> Pattern.compile(x, Pattern.CASE_INSENSITIVE)).toList();
            } catch (PatternSyntaxException e) {
                throw new IllegalArgumentException(s, e);
            }
        });
    }
}
