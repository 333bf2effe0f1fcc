package io.pylon.manager.auth;

import com.password4j.Argon2Function;
import com.password4j.Password;
import com.password4j.types.Argon2;
import io.pylon.manager.auth.argon2.Argon2Cost;
import io.pylon.manager.auth.argon2.Argon2idPhc;
import io.pylon.manager.auth.argon2.PooledArgon2id;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class PasswordHasherTest {
    private final PasswordHasher hasher = new PasswordHasher(4096, 2, 1, new HashingPool(1, 4));

    @Test
    void hashesAreArgon2idPhcStringsWithTheirParametersAndARandomSalt() {
        String first = hasher.hash("correct horse battery");
        String second = hasher.hash("correct horse battery");

        assertThat(first).startsWith("$argon2id$v=19$m=4096,t=2,p=1$").isNotEqualTo(second);
        assertThat(first.substring("$argon2id$v=19$m=4096,t=2,p=1$".length())).as("unpadded Base64")
                .doesNotContain("=");
        assertThat(hasher.verify("correct horse battery", first)).isTrue();
        assertThat(hasher.verify("correct horse battery!", first)).isFalse();
    }

    @Test
    void aHashIsVerifiedWithTheParametersWrittenInIt() {
        String old = new PasswordHasher(1024, 1, 1, new HashingPool(1, 1)).hash("kept from before");

        assertThat(hasher.verify("kept from before", old)).isTrue();
    }

    /** Written by Pylon's own Argon2id before hashing moved to Bouncy Castle: stored rows keep verifying. */
    @Test
    void hashesWrittenByTheFormerImplementationVerify() {
        List<List<String>> written = List.of(
                List.of("correct horse battery staple",
                        "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0c2FsdA$QKHrg5tayLGcN+Y0HVPNaBqykOVLUxlMkZycXE1uWRM"),
                List.of("pässwörd \u2603",
                        "$argon2id$v=19$m=64,t=3,p=2$MDEyMzQ1Njc4OWFiY2RlZg$goioEF4VzGRC69Oee1fYtPquB2B4P/2kahmpIW8WjdI"),
                List.of("", "$argon2id$v=19$m=1024,t=1,p=4$AAAAAAAAAAA$xbFp+Yin56s2EYMNGNWpkLGryl/Veyny"),
                List.of("admin-password-42", "$argon2id$v=19$m=4096,t=10,p=1$bm90IGEgcmVhbCBzYWx0IQ$D6gENQCz/roeOUufaZN44g"));

        for (List<String> row : written) {
            assertThat(hasher.verify(row.get(0), row.get(1))).as(row.get(1)).isTrue();
            assertThat(hasher.verify(row.get(0) + "x", row.get(1))).as(row.get(1)).isFalse();
        }
    }

    @Test
    void anUnknownUserNeverVerifiesButCostsAVerification() {
        assertThat(hasher.verify("anything", null)).isFalse();
        assertThat(hasher.verify("anything", "not a hash")).isFalse();
    }

    @Test
    void aHashWrittenByPassword4jVerifies() {
        String written = Password.hash("written by password4j").addRandomSalt(16)
                .with(Argon2Function.getInstance(19456, 2, 1, 32, Argon2.ID)).getResult();

        assertThat(hasher.verify("written by password4j", written)).isTrue();
        assertThat(hasher.verify("written by password4j?", written)).isFalse();
    }

    @Test
    void aHashWrittenByPylonVerifiesWithPassword4j() {
        String written = new PasswordHasher(19456, 2, 1, new HashingPool(1, 1)).hash("written by Pylon ünïcode");

        assertThat(Password.check("written by Pylon ünïcode", written)
                .with(Argon2Function.getInstanceFromHash(written))).isTrue();
    }

    @Test
    void base64PaddingIsTolerated() {
        String written = hasher.hash("padded");
        String[] fields = written.split("\\$");
        String padded = String.join("$", fields[0], fields[1], fields[2], fields[3], fields[4] + "==", fields[5] + "=");

        assertThat(hasher.verify("padded", padded)).isTrue();
    }

    @Test
    void malformedOrTamperedHashesAreFalseWithoutAnException() {
        String salt = "c29tZXNhbHRzb21lc2FsdA";
        String hash = "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
        List<String> broken = List.of(
                "",
                "$argon2id$v=19$m=4096,t=2,p=1$" + salt,
                "$argon2id$v=19$m=4096,t=2,p=1$" + salt + "$",
                "$argon2id$v=19$m=4096,t=2$" + salt + "$" + hash,
                "$argon2id$v=19$" + salt + "$" + hash,
                "$argon2id$m=4096,t=2,p=1$" + salt + "$" + hash,
                "$argon2id$v=16$m=4096,t=2,p=1$" + salt + "$" + hash,
                "$argon2i$v=19$m=4096,t=2,p=1$" + salt + "$" + hash,
                "$argon2d$v=19$m=4096,t=2,p=1$" + salt + "$" + hash,
                "$argon2id$v=19$m=4096,t=2,p=1$" + salt + "$" + hash + "$extra",
                "$argon2id$v=19$m=4096,t=2,p=1$not*base64$" + hash,
                "$argon2id$v=19$m=4096,t=2,p=1$" + salt + "$" + hash + "!",
                "$argon2id$v=19$m=4096,t=2,p=1$c2FsdA$" + hash,
                "$argon2id$v=19$m=4096,t=2,p=1$" + salt + "$AAA",
                "$argon2id$v=19$m=2147483648,t=2,p=1$" + salt + "$" + hash,
                "$argon2id$v=19$m=99999999999999999999,t=2,p=1$" + salt + "$" + hash,
                "$argon2id$v=19$m=-4096,t=2,p=1$" + salt + "$" + hash,
                "$argon2id$v=19$m=+4096,t=2,p=1$" + salt + "$" + hash,
                "$argon2id$v=19$m=4096,t=0,p=1$" + salt + "$" + hash,
                "$argon2id$v=19$m=4096,t=2,p=0$" + salt + "$" + hash,
                "$argon2id$v=19$m=8,t=2,p=2$" + salt + "$" + hash,
                "$argon2id$v=19$t=2,m=4096,p=1$" + salt + "$" + hash,
                "$argon2id$v=19$m=4096,t=2,p=1,keyid=x$" + salt + "$" + hash,
                "$argon2id$v=19$m=4096, t=2,p=1$" + salt + "$" + hash,
                "$argon2id$v=19$m=4096,t=2,p=1$" + salt + "$" + "A".repeat(600),
                // parse, but ask for more than a stored hash may: 2 TiB, 2^31-1 passes, 2^24-1 lanes
                "$argon2id$v=19$m=2147483644,t=2,p=1$" + salt + "$" + hash,
                "$argon2id$v=19$m=4096,t=2147483647,p=1$" + salt + "$" + hash,
                "$argon2id$v=19$m=2147483640,t=1,p=16777215$" + salt + "$" + hash);

        for (String stored : broken) {
            assertThat(hasher.verify("password", stored)).as(stored).isFalse();
        }
    }

    @Test
    void storedCostsAreBoundedEvenWhenThePasswordIsRight() {
        byte[] password = "right".getBytes(StandardCharsets.UTF_8);
        byte[] salt = "saltsaltsalt".getBytes(StandardCharsets.UTF_8);
        Argon2Cost atBound = new Argon2Cost(8, PasswordHasher.MAX_STORED_ITERATIONS, 1);
        Argon2Cost beyond = new Argon2Cost(8, PasswordHasher.MAX_STORED_ITERATIONS + 1, 1);

        PooledArgon2id argon2id = new PooledArgon2id(atBound, 1);
        String allowed = new Argon2idPhc(atBound, salt, argon2id.hash(atBound, password, salt, 32)).format();
        String refused = new Argon2idPhc(beyond, salt, argon2id.hash(beyond, password, salt, 32)).format();

        assertThat(hasher.verify("right", allowed)).isTrue();
        assertThat(hasher.verify("right", refused)).isFalse();
    }
}
