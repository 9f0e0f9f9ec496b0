package io.webhookbuffer.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.function.Function;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import io.webhookbuffer.common.Hmac;
import io.webhookbuffer.testsupport.SignatureVectors.Vector;

/**
 * A signature checked as the body arrives says what the verifier says of the whole body: every golden vector of every
 * provider whose scheme offers a {@link BodyCheck}, its body cut into chunks at random places.
 */
class BodyCheckTests {

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.webhookbuffer.verify.ProviderVectorsTests#vectors")
    void aBodyCheckedAsItArrivesGetsTheVerifiersAnswer(String name, Vector v) {
        SignatureVerifier verifier = ProviderVectorsTests.verifier(v);
        BodyCheck check = verifier.bodyCheck(v.headerLookup(), v.secrets(), v.receivedAtOrNow());
        if (check == null) {
            return; // this scheme needs the whole body: verified as before
        }
        feed(check, v.body(), new Random(name.hashCode()));
        assertEquals(verifier.verify(v.headerLookup(), v.body(), v.secrets(), v.receivedAtOrNow()), check.finish(),
                name + ": " + v.description());
    }

    @Test
    void theCommonHmacSchemesAreCheckedAsTheBodyArrives() {
        for (String provider : List.of("generic", "stripe", "github", "shopify", "slack", "paddle",
                "intercom")) {
            SignatureVerifier verifier = Providers.verifier(provider, "https://hooks.example.com/webhook/t", null, null);
            assertNotNull(verifier.bodyCheck(h -> null, List.of("s"), 0), provider);
        }
        // Schemes that need the whole body, or a public key, have none.
        assertNull(Providers.verifier("standard-webhooks", null, null, null).bodyCheck(h -> null,
                List.of("whsec_c2VjcmV0"), 0));
    }

    @Test
    void aForgedBodyFailsWhateverItsChunksAndAGenuineOnePassesWithEveryOne() {
        SignatureVerifier generic = new GenericHmacVerifier();
        byte[] body = new byte[300_000];
        new Random(7).nextBytes(body);
        String signature = HexFormat.of().formatHex(Hmac.hmacSha256("current", body));
        Function<String, String> headers = h -> GenericHmacVerifier.SIGNATURE_HEADER.equals(h) ? signature : null;
        List<String> secrets = List.of("previous", "current");
        for (int seed = 0; seed < 20; seed++) {
            BodyCheck genuine = generic.bodyCheck(headers, secrets, 0);
            feed(genuine, body, new Random(seed));
            assertEquals(VerificationFailure.NONE, genuine.finish(), "seed " + seed);
            byte[] forged = body.clone();
            forged[new Random(seed).nextInt(forged.length)] ^= 1;
            BodyCheck check = generic.bodyCheck(headers, secrets, 0);
            feed(check, forged, new Random(seed));
            assertEquals(VerificationFailure.BAD_SIGNATURE, check.finish(), "seed " + seed);
        }
    }

    @Test
    void headersThatRefuseTheRequestDecideBeforeTheBody() {
        SignatureVerifier generic = new GenericHmacVerifier();
        BodyCheck missing = generic.bodyCheck(h -> null, List.of("s"), 0);
        assertTrue(missing.decided());
        missing.update(ByteBuffer.wrap("anything".getBytes(StandardCharsets.UTF_8)));
        assertEquals(VerificationFailure.MISSING_SIGNATURE, missing.finish());
        BodyCheck malformed = generic.bodyCheck(h -> "XYZ", List.of("s"), 0);
        assertEquals(VerificationFailure.MALFORMED_SIGNATURE, malformed.finish());
        BodyCheck noSecret = generic.bodyCheck(h -> "0".repeat(64), List.of(), 0);
        assertEquals(VerificationFailure.NO_SECRET, noSecret.finish());
        assertFalse(generic.bodyCheck(h -> "0".repeat(64), List.of("s"), 0).decided());
    }

    /** The body in chunks of random sizes (empty ones too), each a slice of a larger array. */
    private static void feed(BodyCheck check, byte[] body, Random random) {
        int at = 0;
        while (at < body.length) {
            int n = Math.min(body.length - at, random.nextInt(3) == 0 ? 0 : 1 + random.nextInt(9000));
            byte[] padded = new byte[n + 8];
            System.arraycopy(body, at, padded, 4, n);
            ByteBuffer chunk = ByteBuffer.wrap(padded, 4, n);
            check.update(chunk);
            assertEquals(4, chunk.position(), "the chunk's position is left as it was");
            at += n;
        }
    }
}
