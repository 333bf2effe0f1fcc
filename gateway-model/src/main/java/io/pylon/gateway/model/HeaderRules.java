package io.pylon.gateway.model;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Headers a proxy removes from, then sets on, a request on its way upstream or a response on its way back. A header
 * in {@code add} replaces any value of that name. Names are kept as written; matching is case-insensitive.
 */
public record HeaderRules(Map<String, String> add, List<String> remove) {
    public static final HeaderRules NONE = new HeaderRules(Map.of(), List.of());

    public HeaderRules {
        add = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(add));
        remove = List.copyOf(remove);
    }

    public boolean isEmpty() {
        return add.isEmpty() && remove.isEmpty();
    }
}
