package io.webhookbuffer.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.charset.StandardCharsets;
import java.util.AbstractList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.webhookbuffer.testsupport.SignatureVectors;
import io.webhookbuffer.testsupport.SignatureVectors.Vector;

/**
 * What a verifier can refuse without computing a MAC, it refuses without one: a missing or malformed signature header
 * (wrong encoding, wrong length, too many signatures) and a signed timestamp outside the tolerance. The proof is a
 * secrets list that fails when read: no MAC can be computed without a secret, so a verifier that reaches for one
 * throws instead of answering.
 */
class CheapChecksTests {

    /** Three secrets that cannot be read: {@code size()} answers, every element access throws. */
    static final List<String> UNREADABLE_SECRETS = new AbstractList<>() {
        @Override
        public String get(int index) {
            throw new AssertionError("a secret was read (so a MAC was about to be computed)");
        }

        @Override
        public int size() {
            return 3;
        }
    };

    static Stream<Arguments> refusedBeforeTheMac() {
        return SignatureVectors.all().stream()
                .filter(v -> v.expected() != VerificationFailure.NONE && v.expected() != VerificationFailure.BAD_SIGNATURE
                        && v.expected() != VerificationFailure.NO_SECRET)
                .map(v -> Arguments.of(v.toString(), v));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refusedBeforeTheMac")
    void refusedWithoutReadingASecret(String name, Vector v) {
        SignatureVerifier verifier = ProviderVectorsTests.verifier(v);
        assertEquals(v.expected(), verifier.verify(v.headerLookup(), v.body(), UNREADABLE_SECRETS, v.receivedAtOrNow()),
                name + ": " + v.description());
    }

    @Test
    void theVectorsIncludeAStaleTimestampForEverySchemeThatSignsOne() {
        // Otherwise the test above would prove nothing about the timestamp check.
        assertFalse(refusedBeforeTheMac().filter(a -> ((Vector) a.get()[1]).expected() == VerificationFailure.STALE_TIMESTAMP)
                .findAny().isEmpty());
    }

    @Test
    void aStaleTimestampUnderAWrongSignatureIsStaleWithoutAMac() {
        // An attacker's request: well-formed, a timestamp an hour old, a signature of nothing. Refused on the time alone.
        long now = 1_767_225_600_000L;
        String header = "t=" + (now / 1000 - 3600) + ",v1=" + "ab".repeat(32);
        SignatureVerifier stripe = Providers.verifier(Providers.STRIPE);
        assertEquals(VerificationFailure.STALE_TIMESTAMP,
                stripe.verify(headers(Map.of("Stripe-Signature", header)), "{}".getBytes(StandardCharsets.UTF_8),
                        UNREADABLE_SECRETS, now));
    }

    @Test
    void genericRefusesAWrongLengthOrEncodingWithoutAMac() {
        SignatureVerifier generic = Providers.verifier(Providers.GENERIC);
        byte[] body = "{}".getBytes(StandardCharsets.UTF_8);
        for (String bad : List.of("ab".repeat(31), "ab".repeat(33), "AB".repeat(32), "zz".repeat(32))) {
            assertEquals(VerificationFailure.MALFORMED_SIGNATURE,
                    generic.verify(headers(Map.of("X-Signature", bad)), body, UNREADABLE_SECRETS, 0), bad);
        }
    }

    static Function<String, String> headers(Map<String, String> values) {
        Map<String, String> byName = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        byName.putAll(values);
        return byName::get;
    }
}
