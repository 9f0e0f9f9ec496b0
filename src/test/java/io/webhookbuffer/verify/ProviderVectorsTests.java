package io.webhookbuffer.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.webhookbuffer.common.Hmac;
import io.webhookbuffer.testsupport.SignatureVectors;
import io.webhookbuffer.testsupport.SignatureVectors.QueryVector;
import io.webhookbuffer.testsupport.SignatureVectors.Vector;

/** Every provider's golden vectors against the pure verifiers, and a fuzz of every header each scheme parses. */
class ProviderVectorsTests {

    private static final String UNICODE_PIECES = "0123456789abcdef=,;: v\u0663\uff21\u00a0\u2003\u200b\ufeff";

    /** generate.py's vectors and those the providers' SDKs made (signature-vectors/sdk/make.js). */
    static Stream<Arguments> vectors() {
        return Stream.concat(SignatureVectors.all().stream(), SignatureVectors.sdk().stream())
                .map(v -> Arguments.of(v.toString(), v));
    }

    static SignatureVerifier verifier(Vector v) {
        SignatureVerifier verifier = Providers.verifier(v.provider(), v.publicUrl(), null, null);
        assertNotNull(verifier, v + ": the provider has a verifier");
        return verifier;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("vectors")
    void goldenVector(String name, Vector v) {
        SignatureVerifier verifier = verifier(v);
        VerificationFailure actual = verifier.verify(v.headerLookup(), v.body(), v.secrets(), v.receivedAtOrNow());
        assertEquals(v.expected(), actual, name + ": " + v.description());
        if (actual != VerificationFailure.NONE || "generic".equals(v.provider())) {
            return;
        }
        assertEquals(v.dedupeId(), verifier.dedupeId(v.headerLookup(), v.body()), name + ": the dedupe id");
        if (v.dedupeId() != null) {
            assertEquals(!SignatureVectors.UNSIGNED_IDS.contains(v.provider()),
                    verifier.signsDedupeId(v.headerLookup(), v.body()), name + ": whether the signature covers the id");
        }
        HandshakeAnswer answer = verifier.handshake(v.headerLookup(), v.body(), v.secrets(), v.receivedAtOrNow());
        if (v.handshake() == null) {
            assertNull(answer, name + ": an event is not a handshake");
        } else {
            assertEquals(v.handshake().get("challenge"), answer.challenge(), name);
            assertEquals(v.handshake().get("plainToken"), answer.plainToken(), name);
            assertEquals(v.handshake().get("encryptedToken"), answer.encryptedToken(), name);
            assertEquals(v.handshake().get("type"), answer.type() == null ? null : answer.type().toString(), name);
            assertEquals(v.handshake().get("text"), answer.text(), name);
        }
    }

    static Stream<Arguments> queryVectors() {
        return SignatureVectors.queryHandshakes().stream().map(v -> Arguments.of(v.toString(), v));
    }

    /** The GET endpoint checks (Meta, X, Dropbox): answered exactly as generate.py computed, or refused. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("queryVectors")
    void queryHandshakeVector(String name, QueryVector v) {
        QueryHandshake handshake = Providers.queryHandshake(v.provider());
        assertNotNull(handshake, name + ": the provider has a GET check");
        QueryHandshake.Answer answer = handshake.answer(v.query(), v.secrets());
        if ("ANSWER".equals(v.expected())) {
            assertNull(answer.failure(), name + ": " + v.description());
            assertEquals(v.contentType(), answer.contentType(), name);
            assertEquals(v.body(), answer.body(), name);
        } else {
            assertEquals(QueryHandshake.Failure.valueOf(v.expected()), answer.failure(), name + ": " + v.description());
            assertNull(answer.body(), name + ": a refusal echoes nothing");
        }
    }

    @Test
    void onlyMetaXAndDropboxHaveAGetCheck() {
        for (String provider : Providers.names()) {
            assertEquals(Set.of("meta", "x", "dropbox").contains(provider), Providers.queryHandshake(provider) != null,
                    provider);
        }
    }

    /**
     * The X oracle guard: for random tokens (every one the CRC would answer), the CRC's answer used as the signature
     * of a body equal to the token never verifies, for X's verifier; whereas the same MAC over a JSON body does.
     */
    @Test
    void noCrcAnswerVerifiesAsAnXEvent() {
        Random random = new Random(0xc2cL);
        String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~";
        String secret = "x-consumer-secret-current-0123456789";
        SignatureVerifier x = Providers.verifier("x");
        for (int i = 0; i < 2000; i++) {
            StringBuilder token = new StringBuilder();
            for (int n = 1 + random.nextInt(QueryHandshake.MAX_TOKEN_LENGTH); n > 0; n--) {
                token.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            QueryHandshake.Answer answer = Providers.queryHandshake("x").answer("crc_token=" + token, List.of(secret));
            String signature = answer.body().substring("{\"response_token\":\"".length(), answer.body().length() - 2);
            Map<String, String> headers = Map.of("x-twitter-webhooks-signature", signature);
            assertEquals(VerificationFailure.BAD_SIGNATURE, x.verify(headers::get,
                    token.toString().getBytes(StandardCharsets.US_ASCII), List.of(secret)), token.toString());
        }
        byte[] json = "{\"a\":1}".getBytes(StandardCharsets.US_ASCII);
        String signature = "sha256=" + Base64.getEncoder().encodeToString(
                Hmac.hmacSha256(secret, json));
        Map<String, String> headers = Map.of("x-twitter-webhooks-signature", signature);
        assertEquals(VerificationFailure.NONE, x.verify(headers::get, json, List.of(secret)));
    }

    @Test
    void metaVerifyTokenIsTheHexHmacOfTheLabel() {
        assertEquals(HexFormat.of().formatHex(Hmac.hmacSha256("s3cret",
                "meta-verify-token".getBytes(StandardCharsets.US_ASCII))), QueryHandshake.metaVerifyToken("s3cret"));
        assertEquals(64, QueryHandshake.metaVerifyToken("another").length());
    }

    @Test
    void everyProviderHasTheRequiredCasesAndUniqueNames() {
        for (String provider : SignatureVectors.PROVIDERS) {
            List<Vector> vectors = SignatureVectors.of(provider);
            Set<String> names = new HashSet<>();
            EnumSet<VerificationFailure> outcomes = EnumSet.noneOf(VerificationFailure.class);
            for (Vector v : vectors) {
                assertTrue(names.add(v.name()), provider + ": duplicate vector " + v.name());
                outcomes.add(v.expected());
            }
            assertTrue(outcomes.containsAll(EnumSet.of(VerificationFailure.NONE, VerificationFailure.BAD_SIGNATURE,
                    VerificationFailure.MISSING_SIGNATURE)), provider + " " + outcomes);
            assertTrue(outcomes.contains(VerificationFailure.MALFORMED_SIGNATURE) || "gitlab".equals(provider),
                    provider + " has a malformed case (a token has no format to break)");
            assertEquals(Providers.signsTimestamp(provider, null), outcomes.contains(VerificationFailure.STALE_TIMESTAMP),
                    provider + ": a stale vector exactly when the scheme signs a timestamp");
            assertTrue(names.contains("tampered-body") && names.contains("wrong-secret") || "generic".equals(provider),
                    provider + " has tampered-body and wrong-secret");
        }
    }

    /** Each SDK file has an accepted, a tampered and a wrong-secret vector, all for shipped providers. */
    @Test
    void theSdkVectorsCoverTheirProviders() {
        List<Vector> sdk = SignatureVectors.sdk();
        Set<String> providers = new HashSet<>();
        Set<String> names = new HashSet<>();
        for (Vector v : sdk) {
            assertTrue(Providers.isKnown(v.provider()), v.toString());
            assertTrue(names.add(v.name()), "duplicate SDK vector " + v.name());
            providers.add(v.provider());
        }
        assertEquals(Set.of("stripe", "github", "standard-webhooks", "clerk", "resend", "twilio"), providers);
        for (String file : SignatureVectors.SDK_FILES) {
            for (String c : List.of("-valid", "-tampered-body", "-wrong-secret")) {
                assertTrue(names.contains(file + c), file + c);
            }
        }
    }

    @Test
    void everyShippedProviderHasVectorsAndNoOther() {
        List<String> shipped = new ArrayList<>(Providers.names());
        shipped.remove(Providers.CUSTOM);
        assertEquals(shipped, SignatureVectors.PROVIDERS);
    }

    @Test
    void aTenantToleranceOverrideWidensTheWindow() {
        Vector outside = SignatureVectors.of("paddle").stream().filter(v -> v.name().equals("outside-default-tolerance"))
                .findFirst().orElseThrow();
        assertEquals(VerificationFailure.STALE_TIMESTAMP, verifier(outside).verify(outside.headerLookup(),
                outside.body(), outside.secrets(), outside.receivedAt()));
        SignatureVerifier wider = Providers.verifier("paddle", null, 30, null);
        assertEquals(VerificationFailure.NONE, wider.verify(outside.headerLookup(), outside.body(), outside.secrets(),
                outside.receivedAt()));
        SignatureVerifier narrower = Providers.verifier("stripe", null, 1, null);
        Vector stripe = SignatureVectors.of("stripe").get(0);
        assertEquals(VerificationFailure.NONE, narrower.verify(stripe.headerLookup(), stripe.body(), stripe.secrets(),
                stripe.receivedAt() + 1000));
        assertEquals(VerificationFailure.STALE_TIMESTAMP, narrower.verify(stripe.headerLookup(), stripe.body(),
                stripe.secrets(), stripe.receivedAt() + 1001));
    }

    @Test
    void withOnlyTheCurrentSecretThePreviousSecretsSignatureFails() {
        for (String provider : SignatureVectors.PROVIDERS) {
            for (Vector v : SignatureVectors.of(provider)) {
                if (!v.name().equals("valid-previous-secret")) {
                    continue;
                }
                assertEquals(VerificationFailure.NONE, verifier(v).verify(v.headerLookup(), v.body(), v.secrets(),
                        v.receivedAtOrNow()), v.toString());
                assertEquals(VerificationFailure.BAD_SIGNATURE, verifier(v).verify(v.headerLookup(), v.body(),
                        List.of(v.secrets().get(0)), v.receivedAtOrNow()), v + " with only the current secret");
            }
        }
    }

    /**
     * For every provider, each header the scheme reads is replaced, one at a time, by hostile values (random bytes,
     * random unicode, repeated separators, mutations of the valid value, huge values): the verifier never throws and
     * never accepts.
     */
    @Test
    void fuzzedHeadersNeverThrowAndNeverPass() {
        Random random = new Random(0x4_5eedL);
        for (String provider : SignatureVectors.PROVIDERS) {
            Vector valid = SignatureVectors.of(provider).stream().filter(v -> v.name().equals("valid")).findFirst()
                    .orElseThrow();
            SignatureVerifier verifier = verifier(valid);
            Map<String, String> base = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
            base.putAll(valid.headers());
            // Stripe's valid vector carries an ignored v0 entry; a mutation there is rightly still accepted.
            base.computeIfPresent("Stripe-Signature", (k, h) -> h.replaceAll(",v0=0+$", ""));
            for (String header : valid.headers().keySet()) {
                if (isUnsignedHeader(header)) {
                    continue;
                }
                String original = base.get(header);
                for (int i = 0; i < 1500; i++) {
                    String value = hostile(random, original, i);
                    Map<String, String> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
                    headers.putAll(base);
                    headers.put(header, value);
                    Function<String, String> lookup = headers::get;
                    VerificationFailure result = verifier.verify(lookup, valid.body(), valid.secrets(),
                            valid.receivedAtOrNow());
                    assertNotNull(result);
                    if (!sameMac(value, original)) {
                        assertNotEquals(VerificationFailure.NONE, result, provider + " " + header + " iteration " + i
                                + " passed with [" + value.substring(Math.max(0, value.length() - 40)) + "]");
                    }
                    verifier.dedupeId(lookup, valid.body());
                }
            }
        }
    }

    /**
     * Surrounding whitespace is stripped, hex is read in either case and base64 padding is optional: such a value
     * carries the same MAC and is rightly accepted.
     */
    private static boolean sameMac(String value, String original) {
        String v = value.strip();
        return v.equalsIgnoreCase(original)
                || original.startsWith(v) && !v.isEmpty() && original.substring(v.length()).matches("=+");
    }

    /** Headers a scheme does not verify (content type, dedupe ids): changing them cannot make a request fail. */
    private static final Set<String> UNSIGNED_HEADERS = Set.of("content-type", "x-github-delivery",
            "x-shopify-webhook-id", "linear-delivery", "x-gitlab-event-uuid", "idempotency-key",
            "i-twilio-idempotency-token",
            // Common HMAC senders (issue 20): delivery ids outside the signature.
            "x-wc-webhook-delivery-id", "x-razorpay-event-id", "x-request-uuid", "request-id", "x-gitea-delivery",
            "x-zendesk-webhook-invocation-id",
            // Handshake presets (issue 20): Twitch's message type is outside the signature.
            "twitch-eventsub-message-type");

    private static boolean isUnsignedHeader(String header) {
        return UNSIGNED_HEADERS.contains(header.toLowerCase(Locale.ROOT));
    }

    @Test
    void fuzzedBodiesNeverThrow() {
        Random random = new Random(0xb0d7L);
        for (String provider : SignatureVectors.PROVIDERS) {
            Vector valid = SignatureVectors.of(provider).get(0);
            SignatureVerifier verifier = verifier(valid);
            for (int i = 0; i < 500; i++) {
                byte[] body = i % 2 == 0 ? randomBytes(random, random.nextInt(300))
                        : mutate(random, new String(valid.body(), StandardCharsets.UTF_8)).getBytes(StandardCharsets.UTF_8);
                VerificationFailure result = verifier.verify(valid.headerLookup(), body, valid.secrets(),
                        valid.receivedAtOrNow());
                assertNotNull(result);
                verifier.dedupeId(valid.headerLookup(), body);
                verifier.handshake(valid.headerLookup(), body, valid.secrets(), valid.receivedAtOrNow());
            }
        }
    }

    @Test
    void theSignatureCountPerHeaderIsBounded() {
        Vector v = SignatureVectors.of("stripe").get(0);
        String header = v.headers().get("Stripe-Signature");
        Map<String, String> headers = new LinkedHashMap<>(v.headers());
        headers.put("Stripe-Signature", header + (",v1=" + "ab".repeat(32)).repeat(SignatureText.MAX_SIGNATURES));
        assertEquals(VerificationFailure.MALFORMED_SIGNATURE, verifier(v).verify(headers::get, v.body(), v.secrets(),
                v.receivedAt()));
    }

    // ---- hostile values ----

    static String hostile(Random random, String valid, int i) {
        return switch (i % 9) {
            case 0 -> new String(randomBytes(random, random.nextInt(200)), StandardCharsets.ISO_8859_1);
            case 1 -> randomUnicode(random, random.nextInt(100));
            case 2 -> repeated(random, new String[] { ",", ";", "=", " ", "v1,", "t=", "ts=", "h1=", "v0=", "sha256=",
                "sha1=", ",,", ";;", "==" }, random.nextInt(400));
            case 3, 4 -> mutate(random, valid);
            // Separators only: an appended well-formed parameter of another name is rightly ignored (as providers do).
            case 5 -> valid + repeated(random, new String[] { ",", ";", " ", "=" }, 1 + random.nextInt(5));
            case 6 -> repeated(random, new String[] { valid.substring(0, Math.min(valid.length(), 8)), ",", " " },
                    random.nextInt(50));
            case 7 -> i % 90 == 7 ? "a".repeat(64 * 1024) + valid : "-" + valid;
            default -> valid.isEmpty() ? "x" : valid.substring(0, random.nextInt(valid.length()));
        };
    }

    static String mutate(Random random, String valid) {
        if (valid.isEmpty()) {
            return "\u0000";
        }
        char[] chars = valid.toCharArray();
        int changes = 1 + random.nextInt(3);
        String alphabet = "0123456789abcdefABCDEF=,;+/ \u0663\uff21";
        for (int c = 0; c < changes; c++) {
            int at = random.nextInt(chars.length);
            char replacement = alphabet.charAt(random.nextInt(alphabet.length()));
            if (replacement == chars[at]) {
                replacement = replacement == 'z' ? 'y' : 'z';
            }
            chars[at] = replacement;
        }
        return new String(chars);
    }

    static byte[] randomBytes(Random random, int n) {
        byte[] b = new byte[n];
        random.nextBytes(b);
        return b;
    }

    static String randomUnicode(Random random, int n) {
        StringBuilder sb = new StringBuilder(n);
        for (int i = 0; i < n; i++) {
            sb.append(random.nextInt(4) == 0 ? (char) random.nextInt(0x10000)
                    : UNICODE_PIECES.charAt(random.nextInt(UNICODE_PIECES.length())));
        }
        return sb.toString();
    }

    static String repeated(Random random, String[] pieces, int n) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) {
            sb.append(pieces[random.nextInt(pieces.length)]);
        }
        return sb.toString();
    }

    private static String abbreviate(String s) {
        return s.length() <= 80 ? s : s.substring(0, 80) + "…(" + s.length() + ")";
    }
}
