package io.pylon.core.diagnostics;

import org.jspecify.annotations.Nullable;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Decides what {@code env} diagnostics must not show. A value is replaced by {@value #MASK} when its key looks
 * secret (a built-in word, an extra pattern from the settings, or a setting declared secret); inside any other
 * value it masks the environment ID wherever it appears, the user-info of URLs ({@code https://******@host}) and the
 * values of secret-looking options on command lines ({@code -Ddb.password=******}, {@code --token ******}).
 */
final class SecretMasker {
    static final String MASK = "******";
    /** Secret wherever they appear in a key: long enough never to be part of an innocent word. */
    private static final List<String> WORDS = List.of("password", "passwd", "passphrase", "secret", "credential");
    /**
     * Secret as a whole segment of a key only ({@code DB_PW}, {@code GITHUB_TOKEN}, {@code apiKey}), so that
     * {@code KEYBOARD_LAYOUT}, {@code PASSENGER_COUNT} or {@code AUTHOR} stay visible.
     */
    private static final Set<String> SEGMENTS = Set.of("token", "key", "apikey", "private", "auth", "authorization");
    /**
     * Secret as the last segment after another one only ({@code DB_PW}, {@code SMTP_PASS}, {@code MYSQL_PWD}): the
     * shell's own {@code PWD} is the working directory, and {@code PASS_THROUGH} is no password.
     */
    private static final Set<String> LAST_SEGMENTS = Set.of("pw", "pwd", "pass");
    /** Segment boundaries: any non-alphanumeric character, and lower-to-upper case changes ({@code keyStore}). */
    private static final Pattern SEGMENT_BOUNDARY = Pattern.compile("[^A-Za-z0-9]+|(?<=[a-z0-9])(?=[A-Z])");
    // Up to the last '@' of the authority: a password may itself contain '@'.
    private static final Pattern URL_USER_INFO = Pattern.compile("(?<=://)[^/?#\\s]*@");
    private static final Pattern ASSIGNMENT = Pattern.compile("([A-Za-z0-9_.\\-]+)=([^\\s,;&]+)");
    private static final Pattern OPTION_THEN_VALUE = Pattern.compile("(?<=^|\\s)(--?[A-Za-z0-9_.\\-]+)(\\s+)([^\\s\\-][^\\s]*)");

    private final @Nullable String environmentId;
    private final List<Pattern> extraKeys;
    private final Set<String> secretKeys;

    /**
     * @param environmentId the pod's environment ID (masked wherever it appears), or null
     * @param extraKeys     more key patterns from the settings
     * @param secretKeys    keys and environment variable names of the settings declared secret
     */
    SecretMasker(@Nullable String environmentId, List<Pattern> extraKeys, Collection<String> secretKeys) {
        this.environmentId = environmentId == null || environmentId.isEmpty() ? null : environmentId;
        this.extraKeys = List.copyOf(extraKeys);
        Set<String> keys = new HashSet<>();
        for (String key : secretKeys) {
            keys.add(key.toLowerCase(Locale.ROOT));
        }
        this.secretKeys = Set.copyOf(keys);
    }

    boolean isSecretKey(String key) {
        String lower = key.toLowerCase(Locale.ROOT);
        if (secretKeys.contains(lower)) {
            return true;
        }
        for (String word : WORDS) {
            if (lower.contains(word)) {
                return true;
            }
        }
        String[] segments = SEGMENT_BOUNDARY.split(key);
        for (String segment : segments) {
            if (SEGMENTS.contains(segment.toLowerCase(Locale.ROOT))) {
                return true;
            }
        }
        if (segments.length > 1 && LAST_SEGMENTS.contains(segments[segments.length - 1].toLowerCase(Locale.ROOT))) {
            return true;
        }
        for (Pattern pattern : extraKeys) {
            if (pattern.matcher(key).find()) {
                return true;
            }
        }
        return false;
    }

    /** The value to show for a key. */
    @Nullable String mask(String key, @Nullable String value) {
        if (value == null) {
            return null;
        }
        if (isSecretKey(key)) {
            return MASK;
        }
        return maskInside(value);
    }

    /** A free-form value (a command line, a URL, a list of options) with the secrets inside it masked. */
    String maskInside(String value) {
        String masked = withoutEnvironmentId(value);
        if (masked.indexOf("://") >= 0) {
            masked = URL_USER_INFO.matcher(masked).replaceAll(MASK + "@");
        }
        if (masked.indexOf('=') >= 0) {
            masked = replaceValues(masked, ASSIGNMENT, 1, 2);
        }
        if (masked.indexOf('-') >= 0) {
            masked = replaceValues(masked, OPTION_THEN_VALUE, 1, 3);
        }
        return masked;
    }

    /** Every occurrence of the environment ID replaced, for texts that may quote anything (thread names...). */
    String withoutEnvironmentId(String text) {
        return environmentId == null || !text.contains(environmentId) ? text : text.replace(environmentId, MASK);
    }

    List<String> maskAll(List<String> values) {
        List<String> masked = new ArrayList<>(values.size());
        for (String value : values) {
            masked.add(maskInside(value));
        }
        return masked;
    }

    private String replaceValues(String input, Pattern pattern, int keyGroup, int valueGroup) {
        Matcher matcher = pattern.matcher(input);
        StringBuilder out = null;
        int copied = 0;
        while (matcher.find()) {
            String key = matcher.group(keyGroup).replaceFirst("^(-D|-+)", "");
            if (isSecretKey(key)) {
                if (out == null) {
                    out = new StringBuilder(input.length());
                }
                out.append(input, copied, matcher.start(valueGroup)).append(MASK);
                copied = matcher.end(valueGroup);
            }
        }
        if (out == null) {
            return input;
        }
        return out.append(input, copied, input.length()).toString();
    }
}
