package io.pylon.core.http;

import io.helidon.common.uri.UriPath;
import io.helidon.http.HeaderNames;
import io.helidon.http.Method;
import io.helidon.http.PathMatcher;
import io.helidon.http.Status;
import io.helidon.webserver.http.Handler;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

import java.io.OutputStream;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The routes of one pod, registered explicitly. It remembers each path and method so that a request whose path
 * exists under another method gets 405 with {@code Allow}, and any other unmatched request a JSON 404. Each handler
 * is timed under its path template by the {@link RouteTimer}; unmatched requests under {@code unmatched}.
 */
public final class Routes {
    private final HttpRouting.Builder routing;
    private final List<Entry> entries = new ArrayList<>();
    private final RouteTimer timer;

    private record Entry(Method method, String path, PathMatcher matcher) {
    }

    /** Routes whose handlers are not timed. */
    public Routes(HttpRouting.Builder routing) {
        this(routing, RouteTimer.NONE);
    }

    public Routes(HttpRouting.Builder routing, RouteTimer timer) {
        this.routing = routing;
        this.timer = timer;
    }

    public Routes get(String path, Handler handler) {
        return route(Method.GET, path, handler);
    }

    public Routes post(String path, Handler handler) {
        return route(Method.POST, path, handler);
    }

    public Routes put(String path, Handler handler) {
        return route(Method.PUT, path, handler);
    }

    public Routes patch(String path, Handler handler) {
        return route(Method.PATCH, path, handler);
    }

    public Routes delete(String path, Handler handler) {
        return route(Method.DELETE, path, handler);
    }

    public Routes route(Method method, String path, Handler plain) {
        Handler handler = timed(path, plain);
        PathMatcher matcher = LiteralPrefixMatcher.of(path);
        entries.add(new Entry(method, path, matcher));
        routing.route(method, matcher, handler);
        if (method == Method.GET) {
            // Helidon 4.5 writes the GET handler's entity on a HEAD answer as well, which puts every later answer on
            // a kept-alive connection out of step: the twin keeps the headers and drops the body bytes
            routing.route(Method.HEAD, matcher, (req, res) -> {
                res.streamFilter(out -> OutputStream.nullOutputStream());
                handler.handle(req, res);
            });
        }
        return this;
    }

    /**
     * Every route registered so far as {@code "METHOD /path/{param}"}, in registration order (HEAD twins of GET
     * routes not listed): what a test compares with a module's published API description. Read it after start-up.
     */
    public List<String> registered() {
        return entries.stream().map(e -> e.method().text() + " " + e.path()).toList();
    }

    /** The handler timed under the route name (a template or a fixed name, never a request's path). */
    public Handler timed(String routeName, Handler handler) {
        return timer.timed(routeName, handler);
    }

    /** Direct access for what this class does not wrap (filters, services); such routes get no 405 help. */
    public HttpRouting.Builder routing() {
        return routing;
    }

    /** Registers the 404/405 handler; must come after every route. */
    public void finish() {
        routing.any(timed("unmatched", this::unmatched));
    }

    private void unmatched(ServerRequest req, ServerResponse res) {
        UriPath path = req.path();
        Set<String> allowed = new LinkedHashSet<>();
        for (Entry entry : entries) {
            if (entry.matcher().match(path).accepted()) {
                allowed.add(entry.method().text());
                if (entry.method() == Method.GET) {
                    allowed.add(Method.HEAD.text());
                }
            }
        }
        if (allowed.isEmpty()) {
            ErrorBody.send(res, Status.NOT_FOUND_404, "not_found", "No resource at " + path.path());
            return;
        }
        String allow = allowed.stream().collect(Collectors.joining(", "));
        res.header(HeaderNames.ALLOW, allow);
        ErrorBody.send(res, Status.METHOD_NOT_ALLOWED_405, "method_not_allowed",
                "Method " + req.prologue().method().text() + " is not allowed on " + path.path() + "; allowed: " + allow);
    }
}
