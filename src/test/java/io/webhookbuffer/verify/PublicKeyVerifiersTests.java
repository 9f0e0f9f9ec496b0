package io.webhookbuffer.verify;

import static io.webhookbuffer.verify.CheapChecksTests.UNREADABLE_SECRETS;
import static io.webhookbuffer.verify.CheapChecksTests.headers;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.security.spec.ECGenParameterSpec;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.webhookbuffer.common.Hmac;

/**
 * The public-key presets' edge cases (sendgrid, discord, standard-webhooks v1a) and Mailgun's body-signed scheme:
 * keys refused at the tenant command with a clear message (malformed, bad base64, wrong length, wrong curve, a
 * private key), signatures bounded and refused before any curve arithmetic, stale timestamps, and a stored key that
 * bypassed the command refusing instead of throwing. Keys and signatures here come from the JDK; the golden vectors
 * (ProviderVectorsTests) come from Python.
 */
class PublicKeyVerifiersTests {

    private static final long NOW_MS = 1_767_225_600_000L;
    private static final String TS = Long.toString(NOW_MS / 1000);
    private static final byte[] BODY = "[{\"event\":\"processed\",\"sg_event_id\":\"e1\"}]".getBytes(StandardCharsets.UTF_8);
    private static final String SG_SIG = "X-Twilio-Email-Event-Webhook-Signature";
    private static final String SG_TS = "X-Twilio-Email-Event-Webhook-Timestamp";

    // ---- keys refused at the tenant command ----

    @Test
    void sendgridKeysThatAreNotP256PublicKeysAreRefusedWithAClearMessage() throws Exception {
        String p384 = b64(ec("secp384r1").getPublic().getEncoded());
        String ed25519 = b64(ed25519().getPublic().getEncoded());
        assertTrue(problem(Providers.SENDGRID, "not*base64").contains("is not base64"));
        assertTrue(problem(Providers.SENDGRID, b64("not a DER key".getBytes(StandardCharsets.UTF_8)))
                .contains("is not an EC public key"));
        assertTrue(problem(Providers.SENDGRID, p384).contains("another curve"), "a P-384 key: the wrong curve");
        assertTrue(problem(Providers.SENDGRID, ed25519).contains("is not an EC public key"));
        assertTrue(problem(Providers.SENDGRID, "A".repeat(600)).contains("too long"));
        String message = problem(Providers.SENDGRID, p384);
        assertTrue(message.startsWith("Secret #1 of 'sendgrid' must be the provider's public verification key"), message);
        assertFalse(message.contains(p384.substring(0, 20)), "the message never echoes the value");
        String p256 = b64(ec("secp256r1").getPublic().getEncoded());
        assertNull(Providers.problem(Providers.SENDGRID, null, null, null, List.of(p256)));
    }

    @Test
    void discordKeysMustBe32BytesOfHex() throws Exception {
        String raw = HexFormat.of().formatHex(rawEd25519(ed25519()));
        assertNull(Providers.problem(Providers.DISCORD, null, null, null, List.of(raw)));
        assertNull(Providers.problem(Providers.DISCORD, null, null, null, List.of(raw.toUpperCase())), "either case");
        assertTrue(problem(Providers.DISCORD, raw.substring(2)).contains("32 bytes, hex"));
        assertTrue(problem(Providers.DISCORD, raw + "00").contains("32 bytes, hex"));
        assertTrue(problem(Providers.DISCORD, "zz" + raw.substring(2)).contains("32 bytes, hex"));
        assertTrue(Providers.problem(Providers.DISCORD, null, null, null, List.of(raw, "nope")).startsWith("Secret #2"));
    }

    @Test
    void standardWebhooksTakesWhpkKeysBesideWhsecSecretsAndRefusesAPrivateKey() throws Exception {
        String whpk = "whpk_" + b64(rawEd25519(ed25519()));
        String whsec = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
        assertNull(Providers.problem(Providers.STANDARD_WEBHOOKS, null, null, null, List.of(whsec, whpk)));
        assertNull(Providers.problem(Providers.STANDARD_WEBHOOKS, null, null, null, List.of(whpk)));
        assertTrue(problem(Providers.STANDARD_WEBHOOKS, "whpk_not*base64").contains("'whpk_'"));
        assertTrue(problem(Providers.STANDARD_WEBHOOKS, "whpk_" + b64(new byte[31])).contains("32 bytes"));
        assertTrue(problem(Providers.STANDARD_WEBHOOKS, "whsk_" + b64(new byte[64])).contains("private"));
        assertTrue(problem(Providers.STANDARD_WEBHOOKS, "whsec_*").contains("not a Standard Webhooks secret"));
    }

    @Test
    void theSignedTimestampPresetsTakeATenantTolerance() {
        for (String provider : List.of(Providers.SENDGRID, Providers.DISCORD, Providers.MAILGUN)) {
            assertTrue(Providers.signsTimestamp(provider, null), provider);
            assertNull(Providers.problem(provider, null, 30, null, List.of()), provider);
        }
    }

    @Test
    void aKeyIsParsedOncePerValue() throws Exception {
        String key = b64(ec("secp256r1").getPublic().getEncoded());
        PublicKeys.Parsed first = PublicKeys.parse(PublicKeys.Format.P256_SPKI_BASE64, key);
        assertNotNull(first.key());
        assertSame(first, PublicKeys.parse(PublicKeys.Format.P256_SPKI_BASE64, key));
    }

    // ---- verification ----

    @Test
    void sendgridVerifiesItsSignatureAndRefusesAStoredKeyOfTheWrongCurveWithoutThrowing() throws Exception {
        KeyPair pair = ec("secp256r1");
        String signature = b64(sign("SHA256withECDSA", pair, (TS).getBytes(StandardCharsets.US_ASCII), BODY));
        SignatureVerifier verifier = Providers.verifier(Providers.SENDGRID);
        Map<String, String> h = Map.of(SG_SIG, signature, SG_TS, TS);
        String good = b64(pair.getPublic().getEncoded());
        assertEquals(VerificationFailure.NONE, verifier.verify(headers(h), BODY, List.of(good), NOW_MS));
        // Settings stored before this check, or written around it: a bad key verifies nothing and throws nothing.
        List<String> bad = List.of(b64(ec("secp384r1").getPublic().getEncoded()), "not*base64", "");
        assertEquals(VerificationFailure.BAD_SIGNATURE, verifier.verify(headers(h), BODY, bad, NOW_MS));
        assertEquals(VerificationFailure.NONE, verifier.verify(headers(h), BODY,
                List.of(bad.get(0), bad.get(1), good), NOW_MS), "rotation: any key may match");
        assertNull(verifier.dedupeId(headers(h), BODY), "no id: the key is sha256(body)");
    }

    @Test
    void signaturesOfTheWrongSizeOrEncodingAreRefusedBeforeAnyKeyIsRead() throws Exception {
        KeyPair pair = ec("secp256r1");
        byte[] der = sign("SHA256withECDSA", pair, TS.getBytes(StandardCharsets.US_ASCII), BODY);
        SignatureVerifier sendgrid = Providers.verifier(Providers.SENDGRID);
        List<String> bad = List.of(b64(new byte[200]), "not*base64!", b64(der) + "AAAA", b64(Arrays.copyOf(der, der.length - 1)),
                b64(der).substring(1), "A".repeat(64 * 1024), HexFormat.of().formatHex(der));
        for (String value : bad) {
            assertEquals(VerificationFailure.MALFORMED_SIGNATURE, sendgrid.verify(headers(Map.of(SG_SIG, value, SG_TS, TS)),
                    BODY, UNREADABLE_SECRETS, NOW_MS), value.substring(0, Math.min(40, value.length())));
        }
        SignatureVerifier discord = Providers.verifier(Providers.DISCORD);
        String hex = HexFormat.of().formatHex(new byte[64]);
        for (String value : List.of(hex.substring(2), hex + "00", b64(new byte[64]), "zz" + hex.substring(2), hex + " " + hex)) {
            assertEquals(VerificationFailure.MALFORMED_SIGNATURE, discord.verify(headers(Map.of("X-Signature-Ed25519",
                    value, "X-Signature-Timestamp", TS)), BODY, UNREADABLE_SECRETS, NOW_MS), value);
        }
    }

    @Test
    void theDerCheckAcceptsExactlyTwoPositiveIntegers() throws Exception {
        byte[] der = sign("SHA256withECDSA", ec("secp256r1"), BODY);
        assertTrue(PublicKeys.isDerEcdsaSignature(der));
        byte[] trailing = Arrays.copyOf(der, der.length + 1);
        trailing[1]++;
        assertFalse(PublicKeys.isDerEcdsaSignature(trailing), "a byte after the second integer");
        byte[] negative = der.clone();
        negative[4] = (byte) 0x80;
        assertFalse(PublicKeys.isDerEcdsaSignature(negative), "a negative first integer");
        assertFalse(PublicKeys.isDerEcdsaSignature(new byte[] { 0x30, 0x06, 0x02, 0x01, 0x01, 0x03, 0x01, 0x01 }),
                "a BIT STRING where the second INTEGER belongs");
        assertFalse(PublicKeys.isDerEcdsaSignature(null));
    }

    @Test
    void aStaleTimestampIsRefusedBeforeAnyKeyIsReadAndATenantToleranceWidensIt() throws Exception {
        KeyPair pair = ed25519();
        String key = HexFormat.of().formatHex(rawEd25519(pair));
        long signedAt = NOW_MS / 1000 - 301;
        String sig = HexFormat.of().formatHex(sign("Ed25519", pair, Long.toString(signedAt).getBytes(StandardCharsets.US_ASCII),
                BODY));
        Map<String, String> h = Map.of("X-Signature-Ed25519", sig, "X-Signature-Timestamp", Long.toString(signedAt));
        assertEquals(VerificationFailure.STALE_TIMESTAMP,
                Providers.verifier(Providers.DISCORD).verify(headers(h), BODY, UNREADABLE_SECRETS, NOW_MS));
        assertEquals(VerificationFailure.NONE,
                Providers.verifier(Providers.DISCORD, null, 302, null).verify(headers(h), BODY, List.of(key), NOW_MS));
        assertEquals(VerificationFailure.NONE, Providers.verifier(Providers.DISCORD).verify(headers(h), BODY, List.of(key),
                NOW_MS - 1000), "300 s exactly is inside the window");
    }

    @Test
    void publicKeyVerificationAlwaysGoesToTheVerificationPool() {
        assertTrue(Providers.verifier(Providers.SENDGRID).costly(List.of("k")));
        assertTrue(Providers.verifier(Providers.DISCORD).costly(List.of("k")), "through the handshake decorator too");
        SignatureVerifier sw = Providers.verifier(Providers.STANDARD_WEBHOOKS);
        assertTrue(sw.costly(List.of("whsec_AAAA", "whpk_AAAA")));
        assertFalse(sw.costly(List.of("whsec_AAAA")), "HMAC only: verified on the event loop as before");
        assertFalse(Providers.verifier(Providers.MAILGUN).costly(List.of("k")));
    }

    // ---- discord's PING ----

    @Test
    void onlyAPingInteractionIsAHandshake() {
        SignatureVerifier discord = Providers.verifier(Providers.DISCORD);
        Map<String, String> none = Map.of();
        assertEquals(1, discord.handshake(headers(none), bytes("{\"type\":1,\"id\":\"1\"}"), List.of(), NOW_MS).type());
        assertNull(discord.handshake(headers(none), bytes("{\"type\":2,\"id\":\"1\"}"), List.of(), NOW_MS));
        assertNull(discord.handshake(headers(none), bytes("{\"type\":1,\"event\":{\"type\":\"X\"}}"), List.of(), NOW_MS),
                "a Webhook Events body (type 1 is an event there)");
        assertNull(discord.handshake(headers(none), bytes("[{\"type\":1}]"), List.of(), NOW_MS));
    }

    // ---- mailgun ----

    @Test
    void mailgunReadsItsSignatureBlockFromTheBodyAndDedupesOnTheToken() {
        SignatureVerifier mailgun = Providers.verifier(Providers.MAILGUN);
        String token = "t".repeat(50);
        String sig = HexFormat.of().formatHex(Hmac.hmacSha256("key", (TS + token)
                .getBytes(StandardCharsets.US_ASCII)));
        String block = "{\"timestamp\":" + TS + ",\"token\":\"" + token + "\",\"signature\":\"" + sig + "\"}";
        byte[] body = bytes("{\"signature\":" + block + ",\"event-data\":{\"id\":\"ev1\"}}");
        Map<String, String> none = Map.of();
        assertEquals(VerificationFailure.NONE, mailgun.verify(headers(none), body, List.of("key"), NOW_MS),
                "an integer timestamp is read as its digits");
        assertEquals(token, mailgun.dedupeId(headers(none), body));
        assertTrue(mailgun.signsDedupeId(headers(none), body), "the token is signed: never bound to the body");
        byte[] overridden = bytes("{\"signature\":" + block + ",\"signature\":{\"token\":\"x\"}}");
        assertEquals(VerificationFailure.MISSING_SIGNATURE, mailgun.verify(headers(none), overridden, List.of("key"),
                NOW_MS), "a later duplicate signature object wins whole, as a JSON parser reads it");
        for (String bad : List.of("[" + block + "]", "{\"signature\":\"" + sig + "\"}", "", "not json")) {
            assertEquals(VerificationFailure.MISSING_SIGNATURE, mailgun.verify(headers(none), bytes(bad), List.of("key"),
                    NOW_MS), bad);
        }
        byte[] longToken = bytes("{\"signature\":{\"timestamp\":\"" + TS + "\",\"token\":\"" + "t".repeat(257)
                + "\",\"signature\":\"" + sig + "\"}}");
        assertEquals(VerificationFailure.MALFORMED_SIGNATURE, mailgun.verify(headers(none), longToken, UNREADABLE_SECRETS,
                NOW_MS));
    }

    // ---- helpers ----

    private static String problem(String provider, String secret) {
        String problem = Providers.problem(provider, null, null, null, List.of(secret));
        assertNotNull(problem, provider + " refuses the key");
        return problem;
    }

    private static KeyPair ec(String curve) throws GeneralSecurityException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec(curve));
        return generator.generateKeyPair();
    }

    private static KeyPair ed25519() throws GeneralSecurityException {
        return KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
    }

    /** The 32 raw key bytes: the end of the 44-byte SubjectPublicKeyInfo. */
    private static byte[] rawEd25519(KeyPair pair) {
        byte[] spki = pair.getPublic().getEncoded();
        return Arrays.copyOfRange(spki, spki.length - 32, spki.length);
    }

    private static byte[] sign(String algorithm, KeyPair pair, byte[]... parts) throws GeneralSecurityException {
        Signature signer = Signature.getInstance(algorithm);
        signer.initSign(pair.getPrivate());
        for (byte[] part : parts) {
            signer.update(part);
        }
        return signer.sign();
    }

    private static String b64(byte[] bytes) {
        return Base64.getEncoder().encodeToString(bytes);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
