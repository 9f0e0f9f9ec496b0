package io.webhookbuffer.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Stream;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

class GenericHmacVerifierTests {

    private static final String VECTORS = "/signature-vectors/generic.json";
    private static final GenericHmacVerifier VERIFIER = new GenericHmacVerifier();
    private static final String UNICODE_PIECES = "0123456789abcdef\u0663\uff21\uff41\u00a0\u2003\u200b\ufeff";
    private static final String MUTATIONS = "0123456789abcdefABCDEFgz \u0663\uff21";

    /** One golden vector from {@code signature-vectors/generic.json}. */
    record Vector(String name, String description, List<String> secrets, Map<String, String> headers, byte[] body,
            VerificationFailure expected) {

        /** Header lookup as the HTTP layer does it: case-insensitive, null when absent. */
        Function<String, String> headerLookup() {
            Map<String, String> byName = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
            byName.putAll(headers);
            return byName::get;
        }

        @Override
        public String toString() {
            return name;
        }
    }

    static List<Vector> vectors() throws IOException {
        JsonNode root;
        try (InputStream in = GenericHmacVerifierTests.class.getResourceAsStream(VECTORS)) {
            assertNotNull(in, VECTORS + " is on the test classpath");
            root = new ObjectMapper().readTree(in);
        }
        assertTrue(root.isArray() && root.size() > 0, "the vector file is a non-empty array");
        List<Vector> vectors = new ArrayList<>();
        for (JsonNode node : root) {
            List<String> secrets = new ArrayList<>();
            node.get("secrets").forEach(s -> secrets.add(s.textValue()));
            Map<String, String> headers = new TreeMap<>();
            node.get("headers").fields().forEachRemaining(e -> headers.put(e.getKey(), e.getValue().textValue()));
            byte[] body;
            if (node.has("bodyBase64")) {
                body = Base64.getDecoder().decode(node.get("bodyBase64").textValue());
            } else {
                body = node.get("bodyUtf8").textValue().getBytes(StandardCharsets.UTF_8);
            }
            vectors.add(new Vector(node.get("name").textValue(), node.get("description").textValue(), secrets, headers,
                    body, VerificationFailure.valueOf(node.get("expected").textValue())));
        }
        return vectors;
    }

    static Stream<Arguments> vectorArguments() throws IOException {
        return vectors().stream().map(v -> Arguments.of(v.name(), v));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("vectorArguments")
    void goldenVector(String name, Vector vector) {
        VerificationFailure actual = VERIFIER.verify(vector.headerLookup(), vector.body(), vector.secrets());
        assertEquals(vector.expected(), actual, name + ": " + vector.description());
    }

    @Test
    void theVectorFileCoversEveryOutcomeAndHasUniqueNames() throws IOException {
        List<Vector> vectors = vectors();
        Set<String> names = new HashSet<>();
        EnumSet<VerificationFailure> outcomes = EnumSet.noneOf(VerificationFailure.class);
        for (Vector v : vectors) {
            assertTrue(names.add(v.name()), "duplicate vector name " + v.name());
            outcomes.add(v.expected());
        }
        // The generic scheme signs no timestamp, so it never answers stale_timestamp.
        assertEquals(EnumSet.complementOf(EnumSet.of(VerificationFailure.STALE_TIMESTAMP)), outcomes);
    }

    /** The vectors' NONE signatures really are HMAC-SHA256 over the body (checked with the JDK, not the code under test). */
    @Test
    void everyAcceptedVectorIsAnIndependentlyComputedHmac() throws Exception {
        for (Vector v : vectors()) {
            if (v.expected() != VerificationFailure.NONE) {
                continue;
            }
            String provided = v.headerLookup().apply("X-Signature").strip();
            boolean matches = false;
            for (String secret : v.secrets()) {
                matches |= provided.equals(hmacHex(secret, v.body()));
            }
            assertTrue(matches, v.name());
        }
    }

    @Test
    void everySecretOfTheListIsTried() throws Exception {
        byte[] body = "{\"n\":1}".getBytes(StandardCharsets.UTF_8);
        List<String> secrets = List.of("s-current", "s-previous", "s-older");
        for (String secret : secrets) {
            String sig = hmacHex(secret, body);
            assertEquals(VerificationFailure.NONE, VERIFIER.verify(headers(sig), body, secrets), secret);
            assertEquals(VerificationFailure.BAD_SIGNATURE,
                    VERIFIER.verify(headers(sig), body, List.of("something-else")), secret);
        }
        assertEquals(VerificationFailure.NO_SECRET, VERIFIER.verify(headers(hmacHex("x", body)), body, null));
    }

    @Test
    void randomHeaderValuesNeverThrowAndNeverPass() throws Exception {
        Random random = new Random(0x5eedL);
        byte[] body = "{\"id\":\"evt_fuzz\",\"amount\":1}".getBytes(StandardCharsets.UTF_8);
        String secret = "whsec_fuzz_secret";
        List<String> secrets = List.of(secret, "whsec_fuzz_previous");
        String valid = hmacHex(secret, body);
        assertEquals(VerificationFailure.NONE, VERIFIER.verify(headers(valid), body, secrets), "sanity: the valid one");

        EnumSet<VerificationFailure> seen = EnumSet.noneOf(VerificationFailure.class);
        int huge = 0;
        for (int i = 0; i < 20_000; i++) {
            String value = switch (i % 8) {
                case 0 -> new String(randomBytes(random, random.nextInt(200)), StandardCharsets.ISO_8859_1);
                case 1 -> randomUnicode(random, random.nextInt(100));
                case 2 -> repeated(random, new String[] { ",", "=", ",=", "==", "sha256=", "t=1,v1=", " " },
                        random.nextInt(500));
                case 3 -> mutate(random, valid);
                case 4 -> randomLowerHex(random, 64);
                case 5 -> randomLowerHex(random, random.nextInt(130));
                case 6 -> new String(randomBytes(random, 64), StandardCharsets.ISO_8859_1);
                default -> {
                    if (i % 200 == 7) {
                        huge++;
                        yield random.nextBoolean() ? "a".repeat(100 * 1024)
                                : new String(randomBytes(random, 100 * 1024), StandardCharsets.ISO_8859_1);
                    }
                    yield random.nextBoolean() ? valid.toUpperCase() : " " + valid.substring(1);
                }
            };
            VerificationFailure result = VERIFIER.verify(headers(value), body, secrets);
            assertNotNull(result);
            assertNotEquals(VerificationFailure.NONE, result, "iteration " + i + " passed with " + abbreviate(value));
            seen.add(result);
            VERIFIER.dedupeId(name -> value, body);
        }
        assertTrue(huge >= 50, "the fuzz included huge values");
        assertTrue(seen.containsAll(EnumSet.of(VerificationFailure.MALFORMED_SIGNATURE,
                VerificationFailure.BAD_SIGNATURE, VerificationFailure.MISSING_SIGNATURE)), "seen " + seen);
    }

    @Test
    void dedupeIdIsTheStrippedEventIdHeaderOrNull() {
        byte[] body = new byte[] { 1, 2, 3 };
        assertEquals("evt_123", VERIFIER.dedupeId(eventId("evt_123"), body));
        assertEquals("evt_123", VERIFIER.dedupeId(eventId("  evt_123\t "), body));
        assertEquals("evt 1 2", VERIFIER.dedupeId(eventId(" evt 1 2 "), body), "inner spaces are kept");
        assertEquals("ÉVT-ünïcode", VERIFIER.dedupeId(eventId("ÉVT-ünïcode"), body));
        assertNull(VERIFIER.dedupeId(eventId(""), body));
        assertNull(VERIFIER.dedupeId(eventId("   "), body));
        assertNull(VERIFIER.dedupeId(eventId("\t\r\n "), body));
        assertNull(VERIFIER.dedupeId(name -> null, body));
        Map<String, String> onlySignature = Map.of("X-Signature", "abc");
        assertNull(VERIFIER.dedupeId(onlySignature::get, body));
    }

    @Test
    void dedupeIdReadsTheEventIdHeaderByItsName() {
        Map<String, String> seenNames = new TreeMap<>();
        VERIFIER.dedupeId(name -> {
            seenNames.put(name, "");
            return "evt";
        }, new byte[0]);
        assertEquals(Set.of("X-Event-ID"), seenNames.keySet());
    }

    // ---- helpers ----

    private static Function<String, String> headers(String signature) {
        return name -> "x-signature".equalsIgnoreCase(name) ? signature : null;
    }

    private static Function<String, String> eventId(String value) {
        return name -> "x-event-id".equalsIgnoreCase(name) ? value : null;
    }

    static String hmacHex(String secret, byte[] body) throws GeneralSecurityException {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        return HexFormat.of().formatHex(mac.doFinal(body));
    }

    private static byte[] randomBytes(Random random, int n) {
        byte[] b = new byte[n];
        random.nextBytes(b);
        return b;
    }

    /** Random UTF-16 units, lone surrogates included. */
    private static String randomUnicode(Random random, int n) {
        StringBuilder sb = new StringBuilder(n);
        for (int i = 0; i < n; i++) {
            sb.append(random.nextInt(4) == 0 ? (char) random.nextInt(0x10000)
                    : UNICODE_PIECES.charAt(random.nextInt(UNICODE_PIECES.length())));
        }
        return sb.toString();
    }

    private static String repeated(Random random, String[] pieces, int n) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) {
            sb.append(pieces[random.nextInt(pieces.length)]);
        }
        return sb.toString();
    }

    private static String randomLowerHex(Random random, int n) {
        StringBuilder sb = new StringBuilder(n);
        for (int i = 0; i < n; i++) {
            sb.append("0123456789abcdef".charAt(random.nextInt(16)));
        }
        return sb.toString();
    }

    /** The valid signature with one character changed to something else (another digit, a case flip, a non-hex char). */
    private static String mutate(Random random, String valid) {
        char[] chars = valid.toCharArray();
        int at = random.nextInt(chars.length);
        char original = chars[at];
        char replacement;
        do {
            replacement = MUTATIONS.charAt(random.nextInt(MUTATIONS.length()));
        } while (replacement == original);
        chars[at] = replacement;
        return new String(chars);
    }

    private static String abbreviate(String s) {
        return s.length() <= 80 ? s : s.substring(0, 80) + "... (" + s.length() + " chars)";
    }
}
