package io.pylon.gateway.model;

/** A proxy that requires an API key, read from the request header {@code header}. */
public record KeyAuth(String header) {
    public static final String DEFAULT_HEADER = "X-API-Key";
}
