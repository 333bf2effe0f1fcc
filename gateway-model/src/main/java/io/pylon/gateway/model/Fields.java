package io.pylon.gateway.model;

import org.jspecify.annotations.Nullable;

import com.fasterxml.jackson.databind.JsonNode;
import io.pylon.core.config.SettingType;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/** Reads the fields of one proxy, every refusal naming the proxy ({@code where}) and the field. */
final class Fields {
    /** Longer text than this in any field is refused: a definition is configuration, not content. */
    static final int MAX_TEXT = 2048;

    private final String where;
    private final @Nullable String proxy;

    Fields(String where, @Nullable String proxy) {
        this.where = where;
        this.proxy = proxy;
    }

    InvalidProxyException invalid(String field, String problem) {
        return new InvalidProxyException(where + ": field '" + field + "' " + problem + ".", proxy, field);
    }

    /** The refusal of a value whose parser threw {@code e} with the reason as its message. */
    InvalidProxyException invalid(String field, IllegalArgumentException e) {
        return invalid(field, java.util.Objects.requireNonNullElse(e.getMessage(), "is not valid"));
    }

    void refuseUnknown(JsonNode node, Set<String> known, String parent) throws InvalidProxyException {
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            String field = it.next();
            if (!known.contains(field)) {
                throw new InvalidProxyException(where + ": unknown field '" + parent + Texts.printable(field)
                        + "' (known: " + String.join(", ", known.stream().sorted().toList()) + ").", proxy,
                        parent + Texts.printable(field));
            }
        }
    }

    /** The field's text, or null when it is absent. */
    @Nullable String text(JsonNode node, String parent, String field, boolean required) throws InvalidProxyException {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            if (required) {
                throw invalid(parent + field, "is required");
            }
            return null;
        }
        return text(value, parent + field);
    }

    /** The field's text; refused when it is absent. */
    String requiredText(JsonNode node, String parent, String field) throws InvalidProxyException {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            throw invalid(parent + field, "is required");
        }
        return text(value, parent + field);
    }

    String text(JsonNode value, String field) throws InvalidProxyException {
        if (!value.isTextual() || value.asText().isBlank()) {
            throw invalid(field, "must be non-empty text");
        }
        String text = value.asText();
        if (text.length() > MAX_TEXT) {
            throw invalid(field, "is longer than " + MAX_TEXT + " characters");
        }
        if (text.chars().anyMatch(c -> c < 0x20 || c == 0x7F)) {
            throw invalid(field, "must not contain control characters");
        }
        return text.strip();
    }

    boolean bool(JsonNode node, String parent, String field) throws InvalidProxyException {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return false;
        }
        if (!value.isBoolean()) {
            throw invalid(parent + field, "must be true or false");
        }
        return value.asBoolean();
    }

    Duration duration(JsonNode node, String parent, String field, Duration fallback) throws InvalidProxyException {
        Duration given = optionalDuration(node, parent, field);
        return given == null ? fallback : given;
    }

    /** A duration longer than zero, or null when the field is absent. */
    @Nullable Duration optionalDuration(JsonNode node, String parent, String field) throws InvalidProxyException {
        String text = text(node, parent, field, false);
        if (text == null) {
            return null;
        }
        Duration parsed;
        try {
            parsed = SettingType.DURATION_TYPE.parse(text);
        } catch (IllegalArgumentException e) {
            throw invalid(parent + field, "'" + Texts.printable(text) + "' is not " + SettingType.DURATION_TYPE.expected());
        }
        if (parsed.isZero() || parsed.isNegative()) {
            throw invalid(parent + field, "must be longer than zero");
        }
        return parsed;
    }

    /** A list of text; absent or null is an empty list. */
    List<String> texts(JsonNode node, String parent, String field, int max) throws InvalidProxyException {
        JsonNode list = node.get(field);
        List<String> out = new ArrayList<>();
        if (list == null || list.isNull()) {
            return out;
        }
        if (!list.isArray()) {
            throw invalid(parent + field, "must be a list");
        }
        if (list.size() > max) {
            throw invalid(parent + field, "has more than " + max + " entries");
        }
        for (int i = 0; i < list.size(); i++) {
            out.add(text(list.get(i), parent + field + "[" + i + "]"));
        }
        return out;
    }

    <E extends Enum<E>> E choice(JsonNode node, String parent, String field, Class<E> type, @Nullable E fallback)
            throws InvalidProxyException {
        JsonNode value = node.get(field);
        String choices = String.join(" or ", java.util.Arrays.stream(type.getEnumConstants())
                .map(c -> c.name().toLowerCase(Locale.ROOT).replace('_', '-')).toList());
        if (value == null || value.isNull()) {
            if (fallback == null) {
                throw invalid(parent + field, "is required: " + choices);
            }
            return fallback;
        }
        String text = value.isTextual() ? value.asText().strip().toUpperCase(Locale.ROOT).replace('-', '_') : "";
        for (E constant : type.getEnumConstants()) {
            if (constant.name().equals(text)) {
                return constant;
            }
        }
        throw invalid(parent + field, "'" + Texts.printable(value.asText()) + "' is not " + choices);
    }
}
