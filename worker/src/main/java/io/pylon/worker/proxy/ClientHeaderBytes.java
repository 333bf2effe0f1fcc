package io.pylon.worker.proxy;

import io.helidon.common.buffers.LazyString;
import io.helidon.http.Header;
import org.jspecify.annotations.Nullable;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.charset.StandardCharsets;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A client's request header value as the bytes the client sent, one char a byte (ISO-8859-1), so that a value with
 * bytes outside ASCII (obs-text: a name or a cookie in UTF-8) reaches the upstream unchanged, as through nginx.
 * Helidon 4.5 decodes request header values as US-ASCII, each byte outside it becoming U+FFFD, and offers no other
 * reading; the bytes stay in the parsed header (a {@link LazyString} over the bytes read), and this class reads them
 * there, by reflection, only for a value that holds U+FFFD. A header that came more than once was joined by Helidon
 * from decoded strings, so its values are used as decoded. Should Helidon's classes change, values are used as decoded
 * and one warning is logged. Over HTTP/2 the bytes are not kept; see {@link #utf8IfWide}.
 * Stateless apart from the handles, found once.
 */
final class ClientHeaderBytes {
    private static final Logger LOG = Logger.getLogger(ClientHeaderBytes.class.getName());
    private static final char REPLACED = '\uFFFD';
    private static final @Nullable Handles HANDLES = Handles.find();

    private ClientHeaderBytes() {
    }

    /**
     * The single value of {@code header} as the client sent it, one char a byte, when Helidon's decoding replaced any of
     * its bytes; null when it replaced none, or the bytes cannot be had (use the decoded value).
     */
    static @Nullable String sentIfReplaced(Header header) {
        if (HANDLES == null || header.valueCount() != 1 || header.get().indexOf(REPLACED) < 0) {
            return null;
        }
        return HANDLES.sent(header);
    }

    /**
     * A header value of a request that came over HTTP/2, as its UTF-8 bytes one char a byte, when it holds a char
     * outside ASCII; null when it holds none. Helidon 4.5 decodes an HPACK string sent as it is as UTF-8, so the bytes a
     * client sent in UTF-8 come back exactly, where writing the decoded chars one a byte turned {@code é} into one byte
     * and {@code €} into {@code ?}. A string sent Huffman-coded is decoded as US-ASCII, each byte outside it becoming
     * U+FFFD: those bytes are lost before Pylon sees them, and the upstream gets U+FFFD in UTF-8 for each.
     */
    static @Nullable String utf8IfWide(String value) {
        for (int i = 0; i < value.length(); i++) {
            if (value.charAt(i) > 0x7F) {
                return new String(value.getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1);
            }
        }
        return null;
    }

    /** The fields that hold a parsed header's bytes: Helidon's, so looked up by name, and absent in another version. */
    private record Handles(Class<?> lazyHeader, VarHandle value, VarHandle buffer, VarHandle offset, VarHandle length) {
        static @Nullable Handles find() {
            try {
                Class<?> lazyHeader = Class.forName("io.helidon.http.HeaderValueLazy");
                MethodHandles.Lookup inHeader = MethodHandles.privateLookupIn(lazyHeader, MethodHandles.lookup());
                MethodHandles.Lookup inString = MethodHandles.privateLookupIn(LazyString.class, MethodHandles.lookup());
                return new Handles(lazyHeader,
                        inHeader.findVarHandle(lazyHeader, "value", LazyString.class),
                        inString.findVarHandle(LazyString.class, "buffer", byte[].class),
                        inString.findVarHandle(LazyString.class, "offset", int.class),
                        inString.findVarHandle(LazyString.class, "length", int.class));
            } catch (ReflectiveOperationException | RuntimeException e) {
                LOG.log(Level.WARNING, "Request header values with bytes outside ASCII reach upstreams as '?': "
                        + "this Helidon keeps no parsed header's bytes where expected (" + e + ")");
                return null;
            }
        }

        /**
         * The value's bytes without surrounding whitespace, one char a byte; null for a header not parsed lazily or one
         * holding a control character.
         */
        @Nullable String sent(Header header) {
            if (!lazyHeader.isInstance(header)) {
                return null;
            }
            LazyString lazy = (LazyString) value.get(header);
            byte[] bytes = (byte[]) buffer.get(lazy);
            int start = (int) offset.get(lazy);
            int end = start + (int) length.get(lazy);
            while (start < end && isWhitespace(bytes[start])) {
                start++;
            }
            while (end > start && isWhitespace(bytes[end - 1])) {
                end--;
            }
            for (int i = start; i < end; i++) {
                if (bytes[i] >= 0 && bytes[i] < ' ' && bytes[i] != '\t' || bytes[i] == 0x7F) {
                    return null; // Helidon refuses these in any value; never relay one raw
                }
            }
            return new String(bytes, start, end - start, StandardCharsets.ISO_8859_1);
        }

        private static boolean isWhitespace(byte b) {
            return b == ' ' || b == '\t';
        }
    }
}
