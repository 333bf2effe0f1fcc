package io.pylon.core.diagnostics;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class EnvDigestTest {
    private static final String NONCE = "00112233445566778899aabbccddeeff";

    @Test
    void podsOfOneEnvironmentAgreeForOneNonceOnly() {
        String one = new EnvDigest("env-id").forNonce(NONCE).hash("DB_PASSWORD", "1234");
        assertThat(new EnvDigest("env-id").forNonce(NONCE).hash("DB_PASSWORD", "1234")).isEqualTo(one);
        assertThat(new EnvDigest("env-id").forNonce("ffeeddccbbaa99887766554433221100").hash("DB_PASSWORD", "1234"))
                .isNotEqualTo(one);
        assertThat(new EnvDigest("other-id").forNonce(NONCE).hash("DB_PASSWORD", "1234")).isNotEqualTo(one);
        assertThat(new EnvDigest("env-id").forNonce(NONCE).hash("PIN", "1234")).isNotEqualTo(one);
    }

    @Test
    void theHashIsNotThePlainDigestOfTheValue() throws Exception {
        String hash = new EnvDigest("env-id").forNonce(NONCE).hash("PIN", "1234");
        for (String candidate : new String[] {"1234", "PIN\u00001234", "PIN=1234"}) {
            String plain = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(candidate.getBytes(StandardCharsets.UTF_8)));
            assertThat(hash).isNotEqualTo(plain);
        }
    }

    @Test
    void theDigestAnswerCarriesValuesOnlyWhereMaskingLeavesThemWhole() {
        SecretMasker masker = new SecretMasker("env-id", java.util.List.of(), java.util.List.of());
        EnvSection env = new EnvSection(masker, new EnvDigest("env-id"), () -> Map.of("LOG_LEVEL", "INFO",
                "DB_PASSWORD", "hunter2", "JDBC_URL", "postgres://app:hunter2@db/x"));
        @SuppressWarnings("unchecked")
        Map<String, Map<String, String>> digests = (Map<String, Map<String, String>>) ((Map<String, Object>) env.collect(
                DiagnosticsQuery.of(Map.of("digest", java.util.List.of(NONCE))))).get("environmentDigests");
        assertThat(digests.get("LOG_LEVEL")).containsEntry("value", "INFO").containsKey("hash");
        assertThat(digests.get("DB_PASSWORD")).containsOnlyKeys("hash");
        assertThat(digests.get("JDBC_URL")).containsOnlyKeys("hash");
        assertThat(digests.toString()).doesNotContain("hunter2");
    }
}
