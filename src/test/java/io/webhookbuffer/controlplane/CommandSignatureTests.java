package io.webhookbuffer.controlplane;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

class CommandSignatureTests {

    private static final String SECRET = "control-secret-current-0123456789";
    private static final String PREVIOUS = "control-secret-previous-9876543210";
    private static final List<String> SECRETS = List.of(SECRET);
    private static final long NOW = 1_700_000_000L;
    private static final long TOLERANCE = 300;
    private static final String TS = Long.toString(NOW);
    private static final String NONCE = "n0nce_ABCdef-123456";
    private static final byte[] BODY = "{\"active\":true,\"secrets\":[\"whsec_1\"],\"rateLimit\":100}"
            .getBytes(StandardCharsets.UTF_8);

    /** base64url (no padding) of HMAC-SHA256(secret, "{ts}.{nonce}.{body}"), computed with the JDK only. */
    private static String expectedSignature(String secret, String ts, String nonce, byte[] body) throws Exception {
        ByteArrayOutputStream message = new ByteArrayOutputStream();
        message.write((ts + "." + nonce + ".").getBytes(StandardCharsets.US_ASCII));
        message.write(body);
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        return Base64.getUrlEncoder().withoutPadding().encodeToString(mac.doFinal(message.toByteArray()));
    }

    private static Refusal check(List<String> secrets, String ts, String nonce, String signature, byte[] body) {
        return CommandSignature.check(secrets, ts, nonce, signature, body, NOW, TOLERANCE);
    }

    @Test
    void signMatchesTheIndependentComputation() throws Exception {
        String expected = expectedSignature(SECRET, TS, NONCE, BODY);
        assertEquals(43, expected.length());
        assertEquals(expected, CommandSignature.signV1(SECRET, TS, NONCE, BODY));
        assertEquals(expectedSignature(SECRET, TS, NONCE, new byte[0]), CommandSignature.signV1(SECRET, TS, NONCE, new byte[0]));
    }

    @Test
    void aValidUnpaddedSignatureIsAccepted() throws Exception {
        assertNull(check(SECRETS, TS, NONCE, expectedSignature(SECRET, TS, NONCE, BODY), BODY));
    }

    @Test
    void theValidPaddedFormIsAccepted() throws Exception {
        String padded = expectedSignature(SECRET, TS, NONCE, BODY) + "=";
        assertEquals(Base64.getUrlEncoder().encodeToString(
                Base64.getUrlDecoder().decode(padded)), padded, "sanity: this is the padded base64url form");
        assertNull(check(SECRETS, TS, NONCE, padded, BODY));
    }

    @Test
    void anEmptyBodyCanBeSigned() throws Exception {
        byte[] empty = new byte[0];
        assertNull(check(SECRETS, TS, NONCE, expectedSignature(SECRET, TS, NONCE, empty), empty));
    }

    @Test
    void noConfiguredSecretRefusesEverything() throws Exception {
        assertEquals(Refusal.NOT_CONFIGURED, check(List.of(), TS, NONCE, expectedSignature(SECRET, TS, NONCE, BODY), BODY));
        assertEquals(Refusal.NOT_CONFIGURED, check(List.of(), null, null, null, BODY), "checked before the headers");
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = { " ", "\t" })
    void aMissingOrBlankHeaderIsRefused(String blank) throws Exception {
        String sig = expectedSignature(SECRET, TS, NONCE, BODY);
        assertEquals(Refusal.MISSING_HEADERS, check(SECRETS, blank, NONCE, sig, BODY), "timestamp");
        assertEquals(Refusal.MISSING_HEADERS, check(SECRETS, TS, blank, sig, BODY), "nonce");
        assertEquals(Refusal.MISSING_HEADERS, check(SECRETS, TS, NONCE, blank, BODY), "signature");
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "abcdefghijklmno", // 15 chars: shorter than 16
            "abcdefgh+ijklmnop", // '+' is not base64url
            "abcdefgh/ijklmnop", // '/' is not base64url
            "abcdefgh=ijklmnop",
            "abcdefgh ijklmnop",
            " abcdefghijklmnop",
            "abcdefghijklmnop\n",
            "abcdefgh.ijklmnop", // '.' would make the signed message ambiguous
            "abcdefghijklmnoé",
            "abcdefghijklmnop\u0663" })
    void aMalformedNonceIsRefusedAsMissingHeaders(String nonce) throws Exception {
        assertEquals(Refusal.MISSING_HEADERS, check(SECRETS, TS, nonce, expectedSignature(SECRET, TS, nonce, BODY), BODY));
    }

    @Test
    void nonceLengthBoundsAre16And128() throws Exception {
        for (int length : new int[] { 16, 17, 64, 128 }) {
            String nonce = "a".repeat(length);
            assertNull(check(SECRETS, TS, nonce, expectedSignature(SECRET, TS, nonce, BODY), BODY), "length " + length);
        }
        String tooLong = "a".repeat(129);
        assertEquals(Refusal.MISSING_HEADERS, check(SECRETS, TS, tooLong, expectedSignature(SECRET, TS, tooLong, BODY), BODY));
    }

    @ParameterizedTest
    @ValueSource(strings = { "abc", "1700000000a", "-1700000000", "+1700000000", "1.7e9", "1700000000.0", "0x6553F100",
            " 1700000000", "1700000000 ", "1234567890123", "\u0661\u0667\u0660\u0660\u0660\u0660\u0660\u0660\u0660\u0660" })
    void aNonNumericOrOverlongTimestampIsRefusedAsMissingHeaders(String ts) throws Exception {
        assertEquals(Refusal.MISSING_HEADERS, check(SECRETS, ts, NONCE, expectedSignature(SECRET, ts, NONCE, BODY), BODY));
    }

    @Test
    void aMalformedSignatureIsRefusedAsMissingHeaders() {
        String a43 = "A".repeat(43);
        for (String signature : new String[] { "short", "x", "A".repeat(42), "A".repeat(44), "A".repeat(42) + "=",
                a43 + "==", "=" + a43, a43 + " =", "A".repeat(41) + "+A", "A".repeat(41) + "/A", "A".repeat(41) + ".A",
                "A".repeat(86) }) {
            assertEquals(43, a43.length());
            assertEquals(Refusal.MISSING_HEADERS, check(SECRETS, TS, NONCE, signature, BODY), signature);
        }
    }

    @Test
    void theStandardBase64FormOfAValidSignatureIsRefused() throws Exception {
        // Find a body whose MAC contains '-' or '_' so the standard alphabet differs.
        for (int i = 0;; i++) {
            byte[] body = ("{\"n\":" + i + "}").getBytes(StandardCharsets.UTF_8);
            String urlSafe = expectedSignature(SECRET, TS, NONCE, body);
            if (urlSafe.indexOf('-') >= 0 || urlSafe.indexOf('_') >= 0) {
                String standard = urlSafe.replace('-', '+').replace('_', '/');
                assertNull(check(SECRETS, TS, NONCE, urlSafe, body));
                assertEquals(Refusal.MISSING_HEADERS, check(SECRETS, TS, NONCE, standard, body));
                return;
            }
        }
    }

    @Test
    void timestampsOutsideTheWindowAreStaleInBothDirections() throws Exception {
        for (long ts : new long[] { NOW - 301, NOW + 301, NOW - 86_400, NOW + 86_400, 0 }) {
            String t = Long.toString(ts);
            assertEquals(Refusal.STALE_TIMESTAMP, check(SECRETS, t, NONCE, expectedSignature(SECRET, t, NONCE, BODY), BODY),
                    "ts " + t);
        }
    }

    @Test
    void timestampsAtTheEdgeOfTheWindowAreAccepted() throws Exception {
        for (long ts : new long[] { NOW - 300, NOW + 300, NOW - 1, NOW + 1 }) {
            String t = Long.toString(ts);
            assertNull(check(SECRETS, t, NONCE, expectedSignature(SECRET, t, NONCE, BODY), BODY), "ts " + t);
        }
    }

    @Test
    void leadingZerosInTheTimestampAreSignedAsSent() throws Exception {
        String t = "0" + TS;
        assertNull(check(SECRETS, t, NONCE, expectedSignature(SECRET, t, NONCE, BODY), BODY));
        assertEquals(Refusal.BAD_SIGNATURE, check(SECRETS, t, NONCE, expectedSignature(SECRET, TS, NONCE, BODY), BODY),
                "the signature covers the header's exact text");
    }

    @Test
    void aTamperedBodyIsABadSignature() throws Exception {
        String sig = expectedSignature(SECRET, TS, NONCE, BODY);
        byte[] tampered = new String(BODY, StandardCharsets.UTF_8).replace("100", "999").getBytes(StandardCharsets.UTF_8);
        assertEquals(Refusal.BAD_SIGNATURE, check(SECRETS, TS, NONCE, sig, tampered));
        byte[] extended = (new String(BODY, StandardCharsets.UTF_8) + " ").getBytes(StandardCharsets.UTF_8);
        assertEquals(Refusal.BAD_SIGNATURE, check(SECRETS, TS, NONCE, sig, extended));
    }

    @Test
    void aSignatureForAnotherTimestampOrNonceIsABadSignature() throws Exception {
        String otherTs = Long.toString(NOW - 10);
        assertEquals(Refusal.BAD_SIGNATURE,
                check(SECRETS, TS, NONCE, expectedSignature(SECRET, otherTs, NONCE, BODY), BODY));
        assertEquals(Refusal.BAD_SIGNATURE,
                check(SECRETS, TS, NONCE, expectedSignature(SECRET, TS, "another-nonce-0123", BODY), BODY));
    }

    @Test
    void aWrongSecretIsABadSignature() throws Exception {
        assertEquals(Refusal.BAD_SIGNATURE,
                check(SECRETS, TS, NONCE, expectedSignature("not-the-secret", TS, NONCE, BODY), BODY));
        String valid = expectedSignature(SECRET, TS, NONCE, BODY);
        String flipped = (valid.charAt(0) == 'A' ? "B" : "A") + valid.substring(1);
        assertEquals(Refusal.BAD_SIGNATURE, check(SECRETS, TS, NONCE, flipped, BODY), "well formed, one character off");
        assertEquals(Refusal.BAD_SIGNATURE, check(SECRETS, TS, NONCE, "A".repeat(43), BODY));
    }

    @Test
    void thePreviousSecretIsAcceptedOnlyWhileItIsInTheList() throws Exception {
        String byPrevious = expectedSignature(PREVIOUS, TS, NONCE, BODY);
        assertNull(check(List.of(SECRET, PREVIOUS), TS, NONCE, byPrevious, BODY));
        assertNull(check(List.of(SECRET, PREVIOUS), TS, NONCE, expectedSignature(SECRET, TS, NONCE, BODY), BODY));
        assertEquals(Refusal.BAD_SIGNATURE, check(List.of(SECRET), TS, NONCE, byPrevious, BODY));
    }

    @Test
    void aStaleTimestampIsReportedBeforeTheSignatureIsChecked() {
        String t = Long.toString(NOW - 301);
        assertEquals(Refusal.STALE_TIMESTAMP, check(SECRETS, t, NONCE, "A".repeat(43), BODY));
    }
}
