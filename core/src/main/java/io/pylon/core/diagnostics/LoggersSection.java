package io.pylon.core.diagnostics;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.LogManager;
import java.util.logging.Logger;
import java.util.regex.Pattern;

/**
 * {@code loggers}: {@code GET} lists the pod's java.util.logging loggers (Pylon's, Helidon's, Hazelcast's on a Cache)
 * with their levels, optionally under a {@code prefix}; {@code PUT ?logger=&level=&ttl=} changes one level until the
 * TTL ends; {@code DELETE ?logger=} reverts it at once, {@code DELETE ?all=true} every change of the pod. Levels are JUL's names or their SLF4J equivalents
 * (TRACE=FINEST, DEBUG=FINE, WARN=WARNING, ERROR=SEVERE). The logger {@code root} is the root logger.
 *
 * <p>Threading: stateless itself; {@link LogLevelOverrides} guards the changes, LogManager is thread-safe.
 */
final class LoggersSection implements DiagnosticSection {
    static final Duration DEFAULT_TTL = Duration.ofMinutes(10);
    static final Duration MIN_TTL = Duration.ofSeconds(1);
    static final Duration MAX_TTL = Duration.ofHours(24);
    static final int MAX_LISTED = 2000;
    private static final Pattern LOGGER_NAME = Pattern.compile("[A-Za-z0-9_$.-]{1,200}");
    private static final Map<String, Level> LEVELS = levels();

    private final LogLevelOverrides overrides;

    LoggersSection(LogLevelOverrides overrides) {
        this.overrides = overrides;
    }

    @Override
    public String name() {
        return "loggers";
    }

    @Override
    public boolean inAll() {
        return false;
    }

    @Override
    public Set<String> changes() {
        return Set.of("PUT", "DELETE");
    }

    @Override
    public void validate(String method, DiagnosticsQuery query) {
        switch (method) {
            case "PUT" -> {
                loggerName(query);
                level(query);
                query.duration("ttl", DEFAULT_TTL, MIN_TTL, MAX_TTL);
            }
            case "DELETE" -> {
                if (!revertsAll(query)) {
                    loggerName(query);
                } else if (query.text("logger").isPresent()) {
                    throw new InvalidParameterException("logger", "Give either the query parameter 'logger' or "
                            + "all=true, not both.");
                }
            }
            default -> prefix(query);
        }
    }

    @Override
    public Object collect() {
        return collect(DiagnosticsQuery.EMPTY);
    }

    @Override
    public Object collect(DiagnosticsQuery query) {
        String prefix = prefix(query);
        List<String> names = new ArrayList<>(Collections.list(LogManager.getLogManager().getLoggerNames()));
        names.removeIf(n -> !n.startsWith(prefix));
        Collections.sort(names);
        List<Map<String, Object>> loggers = new ArrayList<>();
        for (String name : names) {
            if (loggers.size() == MAX_LISTED) {
                break;
            }
            Logger logger = LogManager.getLogManager().getLogger(name);
            if (logger != null) {
                loggers.add(describe(name, logger));
            }
        }
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("count", names.size());
        answer.put("truncated", names.size() > loggers.size());
        answer.put("temporaryLevels", overrides.count());
        answer.put("maxTemporaryLevels", overrides.maxOverrides());
        answer.put("levels", List.of("OFF", "SEVERE", "WARNING", "INFO", "CONFIG", "FINE", "FINER", "FINEST", "ALL"));
        answer.put("loggers", loggers);
        return answer;
    }

    /** {@code DELETE ?all=true}: every temporary level of this pod goes back at once. */
    private static boolean revertsAll(DiagnosticsQuery query) {
        return query.bool("all", false);
    }

    @Override
    public Object change(String method, DiagnosticsQuery query) {
        if ("DELETE".equals(method) && revertsAll(query)) {
            List<String> names = overrides.revertAll();
            Map<String, Object> answer = new LinkedHashMap<>();
            answer.put("reverted", names.size());
            answer.put("loggers", names);
            return answer;
        }
        String name = loggerName(query);
        if ("PUT".equals(method)) {
            Duration ttl = query.duration("ttl", DEFAULT_TTL, MIN_TTL, MAX_TTL);
            LogLevelOverrides.Change change = overrides.set(name, level(query), ttl);
            Map<String, Object> answer = describe(name, change.logger());
            answer.put("ttl", ttl.toSeconds());
            return answer;
        }
        Optional<LogLevelOverrides.Change> reverted = overrides.revert(name);
        Map<String, Object> answer = describe(name, reverted.map(LogLevelOverrides.Change::logger).orElse(Logger.getLogger(name)));
        answer.put("reverted", reverted.isPresent());
        return answer;
    }

    private static Map<String, Object> describe(String name, Logger logger) {
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("name", LogLevelOverrides.display(name));
        entry.put("level", logger.getLevel() == null ? null : logger.getLevel().getName());
        entry.put("effectiveLevel", effective(logger).getName());
        LogLevelOverrides.current(name).ifPresent(change -> {
            entry.put("revertsAt", change.revertsAt().toString());
            entry.put("revertsTo", change.previous() == null ? null : change.previous().getName());
        });
        return entry;
    }

    private static Level effective(Logger logger) {
        for (Logger l = logger; l != null; l = l.getParent()) {
            if (l.getLevel() != null) {
                return l.getLevel();
            }
        }
        return Level.INFO;
    }

    private static String loggerName(DiagnosticsQuery query) {
        String name = query.required("logger");
        if ("root".equalsIgnoreCase(name)) {
            return "";
        }
        if (!LOGGER_NAME.matcher(name).matches()) {
            throw new InvalidParameterException("logger", "The query parameter 'logger' must be a logger name of up to "
                    + "200 letters, digits, '.', '_', '$' or '-' (or 'root').");
        }
        return name;
    }

    private static String prefix(DiagnosticsQuery query) {
        String prefix = query.text("prefix").orElse("");
        if (!prefix.isEmpty() && !LOGGER_NAME.matcher(prefix).matches()) {
            throw new InvalidParameterException("prefix", "The query parameter 'prefix' must be the start of a logger "
                    + "name: up to 200 letters, digits, '.', '_', '$' or '-'.");
        }
        return prefix;
    }

    private static Level level(DiagnosticsQuery query) {
        String raw = query.required("level").toUpperCase(Locale.ROOT);
        Level level = LEVELS.get(raw);
        if (level == null) {
            throw new InvalidParameterException("level", "The query parameter 'level' must be one of "
                    + String.join(", ", LEVELS.keySet()) + ".");
        }
        return level;
    }

    private static Map<String, Level> levels() {
        Map<String, Level> levels = new LinkedHashMap<>();
        for (Level level : List.of(Level.OFF, Level.SEVERE, Level.WARNING, Level.INFO, Level.CONFIG, Level.FINE,
                Level.FINER, Level.FINEST, Level.ALL)) {
            levels.put(level.getName(), level);
        }
        levels.put("ERROR", Level.SEVERE);
        levels.put("WARN", Level.WARNING);
        levels.put("DEBUG", Level.FINE);
        levels.put("TRACE", Level.FINEST);
        return levels;
    }
}
