package io.pylon.core.http;

import io.helidon.common.uri.UriPath;
import io.helidon.http.PathMatcher;
import io.helidon.http.PathMatchers;

/**
 * Helidon's matcher for a path template, asked only when the request's path starts with the template's literal
 * part: a template such as {@code /<segment>/diagnostics/{name}} is a regular expression, and every request that a
 * later route takes (the Worker's gateway, a catch-all) would otherwise run it. Immutable.
 */
final class LiteralPrefixMatcher implements PathMatcher {
    private final String literal;
    private final PathMatcher template;

    private LiteralPrefixMatcher(String literal, PathMatcher template) {
        this.literal = literal;
        this.template = template;
    }

    /** The matcher for {@code path}: Helidon's own when it has no template part, else guarded by its literal part. */
    static PathMatcher of(String path) {
        PathMatcher matcher = PathMatchers.create(path);
        int special = firstSpecial(path);
        return special < 0 ? matcher : new LiteralPrefixMatcher(path.substring(0, special), matcher);
    }

    private static int firstSpecial(String path) {
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            if (c == '{' || c == '[' || c == '*' || c == '\\') {
                return i;
            }
        }
        return -1;
    }

    @Override
    public PathMatchers.MatchResult match(UriPath path) {
        return path.path().startsWith(literal) ? template.match(path) : PathMatchers.MatchResult.notAccepted();
    }

    @Override
    public PathMatchers.PrefixMatchResult prefixMatch(UriPath path) {
        return path.path().startsWith(literal) ? template.prefixMatch(path) : PathMatchers.PrefixMatchResult.notAccepted();
    }

    @Override
    public String toString() {
        return template.toString();
    }
}
