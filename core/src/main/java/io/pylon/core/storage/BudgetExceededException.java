package io.pylon.core.storage;

import org.jspecify.annotations.Nullable;

import java.util.LinkedHashMap;
import java.util.Map;

/** A file would not fit in the data directory's budget, or in its kind's share of it; answered 507 naming both. */
public final class BudgetExceededException extends RuntimeException {
    private final Map<String, Object> details;

    BudgetExceededException(String message, String limit, String kind, long limitBytes, long usedBytes,
                            long requestedBytes) {
        super(message, null, false, false);
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("budget", limit);
        map.put("kind", kind);
        map.put("limitBytes", limitBytes);
        map.put("usedBytes", usedBytes);
        map.put("requestedBytes", requestedBytes);
        this.details = Map.copyOf(map);
    }

    /** The message it was built with (never null, unlike a throwable's in general). */
    @Override
    public String getMessage() {
        return java.util.Objects.requireNonNull(super.getMessage());
    }

    /** {@code budget} (the setting that bounds it), {@code kind}, {@code limitBytes}, {@code usedBytes}, {@code requestedBytes}. */
    public Map<String, Object> details() {
        return details;
    }
}
