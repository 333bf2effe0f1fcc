package io.pylon.manager.auth;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class PasswordHasherTest {
    private final PasswordHasher hasher = new PasswordHasher(4096, 2, 1, new HashingPool(1, 4));

    @Test
    void hashesAreArgon2idPhcStringsWithTheirParametersAndARandomSalt() {
        String first = hasher.hash("correct horse battery");
        String second = hasher.hash("correct horse battery");

        assertThat(first).startsWith("$argon2id$v=19$m=4096,t=2,p=1$").isNotEqualTo(second);
        assertThat(hasher.verify("correct horse battery", first)).isTrue();
        assertThat(hasher.verify("correct horse battery!", first)).isFalse();
    }

    @Test
    void aHashIsVerifiedWithTheParametersWrittenInIt() {
        String old = new PasswordHasher(1024, 1, 1, new HashingPool(1, 1)).hash("kept from before");

        assertThat(hasher.verify("kept from before", old)).isTrue();
    }

    @Test
    void anUnknownUserNeverVerifiesButCostsAVerification() {
        assertThat(hasher.verify("anything", null)).isFalse();
        assertThat(hasher.verify("anything", "not a hash")).isFalse();
    }
}
