package io.webhookbuffer.secrets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import io.webhookbuffer.secrets.SecretCipher.Field;

/** Sealing and opening (AES-256-GCM, the tenant and field bound) and the keyring's settings, without Quarkus. */
class SecretCipherTests {

    static final String OLD = "old:" + key(0x11);
    static final String NEW = "new:" + key(0x22);

    static String key(int fill) {
        byte[] key = new byte[32];
        Arrays.fill(key, (byte) fill);
        return Base64.getEncoder().encodeToString(key);
    }

    private static SecretCipher cipher(String active, String... entries) {
        return new SecretCipher(Keyring.parse(List.of(entries), Optional.ofNullable(active)));
    }

    @Test
    void sealedValuesOpenForTheirTenantAndFieldAndNameTheirKey() {
        SecretCipher cipher = cipher(null, NEW);
        String sealed = cipher.seal("whsec-one", "acme", Field.PROVIDER_SECRET);
        assertTrue(sealed.startsWith("v1:new:"), sealed);
        assertFalse(sealed.contains("whsec-one"));
        assertEquals("new", SecretCipher.keyIdOf(sealed));
        assertEquals("whsec-one", cipher.open(sealed, "acme", Field.PROVIDER_SECRET));
        assertNotEquals(sealed, cipher.seal("whsec-one", "acme", Field.PROVIDER_SECRET), "a fresh nonce per value");
    }

    @Test
    void aValueMovedToAnotherTenantOrFieldDoesNotOpen() {
        SecretCipher cipher = cipher(null, NEW);
        String sealed = cipher.seal("whsec-one", "acme", Field.PROVIDER_SECRET);
        SealedValueException other = assertThrows(SealedValueException.class,
                () -> cipher.open(sealed, "globex", Field.PROVIDER_SECRET));
        assertTrue(other.getMessage().contains("globex") && !other.getMessage().contains("whsec"), other.getMessage());
        assertThrows(SealedValueException.class, () -> cipher.open(sealed, "acme", Field.ORIGIN_TOKEN));
        String tampered = sealed.substring(0, sealed.length() - 2) + (sealed.endsWith("AA") ? "BB" : "AA");
        assertThrows(SealedValueException.class, () -> cipher.open(tampered, "acme", Field.PROVIDER_SECRET));
        assertThrows(SealedValueException.class, () -> cipher.open("whsec-in-clear", "acme", Field.PROVIDER_SECRET));
    }

    @Test
    void duringARotationBothKeysOpenAndTheActiveOneSeals() {
        String underOld = cipher("old", OLD, NEW).seal("s", "acme", Field.ORIGIN_SIGNING_SECRET);
        SecretCipher both = cipher("new", OLD, NEW);
        assertEquals("s", both.open(underOld, "acme", Field.ORIGIN_SIGNING_SECRET));
        assertEquals("new", SecretCipher.keyIdOf(both.seal("s", "acme", Field.ORIGIN_SIGNING_SECRET)));
        SealedValueException gone = assertThrows(SealedValueException.class,
                () -> cipher(null, NEW).open(underOld, "acme", Field.ORIGIN_SIGNING_SECRET));
        assertEquals("old", gone.keyId());
        assertTrue(gone.getMessage().contains("'old'"), gone.getMessage());
        // Another key under the same id is a wrong key, not a missing one.
        assertThrows(SealedValueException.class,
                () -> cipher(null, "old:" + key(0x33)).open(underOld, "acme", Field.ORIGIN_SIGNING_SECRET));
    }

    @Test
    void noKeyRefusesWithAMessageNamingTheSetting() {
        IllegalStateException none = assertThrows(IllegalStateException.class,
                () -> Keyring.parse(List.of(), Optional.empty()));
        assertTrue(none.getMessage().contains("buffer.secrets.keys is required outside local mode"), none.getMessage());
        assertTrue(none.getMessage().contains("openssl rand -base64 32"), none.getMessage());
    }

    @Test
    void badKeysAreRefusedWithoutShowingThem() {
        String shortKey = Base64.getEncoder().encodeToString(new byte[16]);
        List<String> problems = List.of(
                problem(List.of("k1:" + shortKey), null), problem(List.of("k1:not base64!"), null),
                problem(List.of("no-colon"), null), problem(List.of(OLD, "old:" + key(0x44)), null),
                problem(List.of(OLD, NEW), null), problem(List.of(OLD, NEW), "other"));
        assertTrue(problems.get(0).contains("32 bytes") && problems.get(0).contains("was 16 bytes"), problems.get(0));
        assertTrue(problems.get(1).contains("not base64"), problems.get(1));
        assertTrue(problems.get(2).contains("<id>:<base64 key>"), problems.get(2));
        assertTrue(problems.get(3).contains("twice"), problems.get(3));
        assertTrue(problems.get(4).contains("buffer.secrets.active-key must name"), problems.get(4));
        assertTrue(problems.get(5).contains("must be one of"), problems.get(5));
        problems.forEach(p -> assertFalse(p.contains(key(0x11)) || p.contains(shortKey), "a key in a message: " + p));
    }

    @Test
    void neitherTheKeyringNorTheCipherShowsAKey() {
        SecretCipher cipher = cipher("new", OLD, NEW);
        assertEquals("SecretCipher[Keyring[keys=[old, new], active=new]]", cipher.toString());
        assertEquals("v1:new:", cipher.activePrefix());
        assertEquals("new", cipher(null, "new:" + Base64.getUrlEncoder().encodeToString(new byte[32])).activeKeyId(),
                "URL-safe base64 is accepted too");
    }

    private static String problem(List<String> entries, String active) {
        return assertThrows(IllegalStateException.class, () -> Keyring.parse(entries, Optional.ofNullable(active)))
                .getMessage();
    }
}
