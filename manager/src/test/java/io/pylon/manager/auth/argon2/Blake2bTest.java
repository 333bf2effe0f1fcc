package io.pylon.manager.auth.argon2;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

import static org.assertj.core.api.Assertions.assertThat;

class Blake2bTest {
    private final Blake2b blake2b = new Blake2b();

    private byte[] digest(int length, byte[] input) {
        byte[] out = new byte[length];
        blake2b.init(length);
        blake2b.update(input);
        blake2b.finish(out, 0);
        return out;
    }

    @Test
    void blake2b512OfAbcIsTheRfc7693AppendixAValue() {
        assertThat(HexFormat.of().formatHex(digest(64, "abc".getBytes(StandardCharsets.US_ASCII)))).isEqualTo(
                "ba80a53f981c4d0d6a2797b69f12f6e94c212f14685ac4b74b12bb6fdbffa2d1"
                        + "7d87c5392aab792dc252d5de4533cc9518d38aa8dbf1925ab92386edd4009923");
    }

    @Test
    void theEmptyInputAndShortDigestsMatchKnownValues() {
        // BLAKE2b-512("") and BLAKE2b-256("") as published with the reference implementation (b2sum)
        assertThat(HexFormat.of().formatHex(digest(64, new byte[0]))).isEqualTo(
                "786a02f742015903c6c6fd852552d272912f4740e15847618a86e217f71f5419"
                        + "d25e1031afee585313896444934eb04b903a685b1448b755d56f701afe9be2ce");
        assertThat(HexFormat.of().formatHex(digest(32, new byte[0]))).isEqualTo(
                "0e5751c026e543b2e8ab2eb06099daa1d1e5df47778f7787faab45cdf12fe3a8");
    }

    @Test
    void inputFedInPiecesAcrossBlockBoundariesGivesTheSameDigest() {
        byte[] input = new byte[300];
        for (int i = 0; i < input.length; i++) {
            input[i] = (byte) i;
        }
        byte[] whole = digest(64, input);
        for (int split : new int[] {1, 127, 128, 129, 256}) {
            byte[] pieces = new byte[64];
            blake2b.init(64);
            blake2b.update(input, 0, split);
            blake2b.update(input, split, input.length - split);
            blake2b.finish(pieces, 0);
            assertThat(pieces).as("split at %d", split).isEqualTo(whole);
        }
    }
}
