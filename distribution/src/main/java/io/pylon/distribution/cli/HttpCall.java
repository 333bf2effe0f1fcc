package io.pylon.distribution.cli;

import org.jspecify.annotations.Nullable;

import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/** One HTTP request of the CLI: method, URL, headers, an optional body and the time to wait for the answer. */
public record HttpCall(String method, URI uri, Map<String, String> headers, byte @Nullable [] body, Duration timeout) {

    public static HttpCall get(URI uri, Duration timeout) {
        return new HttpCall("GET", uri, Map.of("Accept", "application/json"), null, timeout);
    }

    public HttpCall header(String name, String value) {
        Map<String, String> copy = new LinkedHashMap<>(headers);
        copy.put(name, value);
        return new HttpCall(method, uri, Map.copyOf(copy), body, timeout);
    }

    /** The same call with another method and body ({@code null}: none) of the given content type. */
    public HttpCall send(String newMethod, byte @Nullable [] newBody, String contentType) {
        HttpCall call = new HttpCall(newMethod, uri, headers, newBody, timeout);
        return newBody == null ? call : call.header("Content-Type", contentType);
    }
}
