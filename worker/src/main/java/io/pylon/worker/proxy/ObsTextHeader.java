package io.pylon.worker.proxy;

import io.helidon.common.GenericType;
import io.helidon.common.mapper.MapperException;
import io.helidon.common.mapper.Value;
import io.helidon.http.Header;
import io.helidon.http.HeaderName;
import io.helidon.http.HeaderValues;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * A response header whose value holds bytes outside ASCII (obs-text: a file name in UTF-8, say), written to the client
 * byte for byte as the upstream sent it. HttpClient hands such a value over one char a byte (ISO-8859-1), and Helidon
 * 4.5 writes a header's value with {@code getBytes(US_ASCII)}, which turns each of those bytes into {@code ?}; this
 * header gives Helidon the bytes themselves. Everything else is the plain header's. Immutable.
 */
final class ObsTextHeader implements Header {
    private final Header plain;
    private final byte[] bytes;

    private ObsTextHeader(Header plain, String value) {
        this.plain = plain;
        this.bytes = value.getBytes(StandardCharsets.ISO_8859_1);
    }

    /** A header of {@code name} and {@code value} (one char a byte) that reaches the client with the same bytes. */
    static Header of(String name, String value) {
        Header plain = HeaderValues.create(name, value);
        for (int i = 0; i < value.length(); i++) {
            if (value.charAt(i) > 0x7F) {
                return new ObsTextHeader(plain, value);
            }
        }
        return plain;
    }

    @Override
    public byte[] valueBytes() {
        return bytes.clone();
    }

    @Override
    public String name() {
        return plain.name();
    }

    @Override
    public HeaderName headerName() {
        return plain.headerName();
    }

    @Override
    public String get() {
        return plain.get();
    }

    @Override
    public List<String> allValues() {
        return plain.allValues();
    }

    @Override
    public int valueCount() {
        return plain.valueCount();
    }

    @Override
    public boolean sensitive() {
        return plain.sensitive();
    }

    @Override
    public boolean changing() {
        return plain.changing();
    }

    @Override
    public <N> Value<N> as(Class<N> type) throws MapperException {
        return plain.as(type);
    }

    @Override
    public <N> Value<N> as(GenericType<N> type) throws MapperException {
        return plain.as(type);
    }

    @Override
    public <N> Value<N> as(Function<? super String, ? extends N> mapper) {
        return plain.as(mapper);
    }

    @Override
    public Optional<String> asOptional() throws MapperException {
        return plain.asOptional();
    }

    @Override
    public Value<Boolean> asBoolean() {
        return plain.asBoolean();
    }

    @Override
    public Value<String> asString() {
        return plain.asString();
    }

    @Override
    public Value<Integer> asInt() {
        return plain.asInt();
    }

    @Override
    public Value<Long> asLong() {
        return plain.asLong();
    }

    @Override
    public Value<Double> asDouble() {
        return plain.asDouble();
    }
}
