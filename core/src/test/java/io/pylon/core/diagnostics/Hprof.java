package io.pylon.core.diagnostics;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.TreeSet;

/** Reads an HPROF stream record by record to its end: a truncated or garbled dump fails with an exception. */
record Hprof(String version, int idSize, long records, Set<Integer> tags) {
    static final int HEAP_DUMP = 0x0C;
    static final int HEAP_DUMP_SEGMENT = 0x1C;
    static final int HEAP_DUMP_END = 0x2C;

    static Hprof read(InputStream raw) throws IOException {
        DataInputStream in = new DataInputStream(new BufferedInputStream(raw, 1 << 16));
        StringBuilder version = new StringBuilder();
        for (int b = in.read(); b != 0; b = in.read()) {
            if (b < 0 || version.length() > 32) {
                throw new IOException("no HPROF header");
            }
            version.append((char) b);
        }
        if (!version.toString().startsWith("JAVA PROFILE 1.0.")) {
            throw new IOException("not an HPROF header: " + version);
        }
        int idSize = in.readInt();
        if (idSize != 4 && idSize != 8) {
            throw new IOException("identifier size " + idSize);
        }
        in.readLong();
        long records = 0;
        Set<Integer> tags = new TreeSet<>();
        while (true) {
            int tag = in.read();
            if (tag < 0) {
                break;
            }
            in.readInt();
            long length = Integer.toUnsignedLong(in.readInt());
            in.skipNBytes(length);
            tags.add(tag);
            records++;
        }
        return new Hprof(version.toString(), idSize, records, tags);
    }

    static boolean startsWithHeader(byte[] first) {
        return new String(first, 0, Math.min(first.length, 18), StandardCharsets.US_ASCII).equals("JAVA PROFILE 1.0.2");
    }
}
