package io.pylon.core.server;

import io.helidon.http.Headers;
import io.helidon.http.encoding.ContentDecoder;
import io.helidon.http.encoding.ContentEncoder;
import io.helidon.http.encoding.ContentEncodingContext;
import io.helidon.http.encoding.ContentEncodingContextConfig;

/**
 * The content codings of a listener that relays bodies as they are: a request body keeps its {@code Content-Encoding}
 * (gzip, br, zstd, snappy: any), neither decoded nor refused, and no answer is compressed. Helidon 4.5 without a
 * decoder refuses every HTTP/1.1 request that has a {@code Content-Encoding} with 400 (over HTTP/2 it lets them
 * through): a gateway would turn away every client that compresses what it sends. Immutable.
 */
final class RelayedContentCodings implements ContentEncodingContext {
    static final RelayedContentCodings INSTANCE = new RelayedContentCodings();
    private static final ContentEncodingContextConfig NONE = ContentEncodingContextConfig.builder()
            .contentEncodingsDiscoverServices(false)
            .buildPrototype();

    private RelayedContentCodings() {
    }

    @Override
    public boolean contentEncodingEnabled() {
        return false;
    }

    @Override
    public boolean contentDecodingEnabled() {
        return true; // so that Helidon asks which: every one is taken, and left as it is
    }

    @Override
    public boolean contentEncodingSupported(String encodingId) {
        return false;
    }

    @Override
    public boolean contentDecodingSupported(String encodingId) {
        return true;
    }

    @Override
    public ContentEncoder encoder(String encodingId) {
        return ContentEncoder.NO_OP;
    }

    @Override
    public ContentDecoder decoder(String encodingId) {
        return ContentDecoder.NO_OP;
    }

    @Override
    public ContentEncoder encoder(Headers headers) {
        return ContentEncoder.NO_OP;
    }

    @Override
    public ContentEncodingContextConfig prototype() {
        return NONE;
    }
}
