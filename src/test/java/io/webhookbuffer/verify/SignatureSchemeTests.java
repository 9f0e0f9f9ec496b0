package io.webhookbuffer.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.webhookbuffer.testsupport.SignatureVectors;
import io.webhookbuffer.testsupport.SignatureVectors.Vector;

/** The pure scheme logic: construction checks, the template, the streaming body reader and custom schemes. */
class SignatureSchemeTests {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void impossibleSchemesAreRefusedAtConstruction() {
        assertThrows(IllegalArgumentException.class, () -> SignatureScheme.builder().build(), "no header");
        assertThrows(IllegalArgumentException.class,
                () -> SignatureScheme.builder("X-S").signedContent("{ts}").build(), "no {body}");
        assertThrows(IllegalArgumentException.class,
                () -> SignatureScheme.builder("X-S").signedContent("{ts}.{body}").build(), "{ts} without a source");
        assertThrows(IllegalArgumentException.class,
                () -> SignatureScheme.builder("X-S").signedContent("{id}.{body}").build(), "{id} without a header");
        assertThrows(IllegalArgumentException.class,
                () -> SignatureScheme.builder("X-S").signedContent("{body").build(), "unclosed");
        assertThrows(IllegalArgumentException.class,
                () -> SignatureScheme.builder("X-S").timestampFromHeader(0, "X-T").build(), "zero tolerance");
        assertThrows(IllegalArgumentException.class,
                () -> SignatureScheme.builder("X-S").timestampFromParam("t", 300).build(), "param without params");
        assertThrows(IllegalArgumentException.class,
                () -> new SchemeVerifier(SignatureScheme.builder("X-S").signedContent("{url}{body}").build(), null),
                "a URL-signing scheme without a URL");
    }

    @Test
    void theTemplateSplitsIntoLiteralsAndPlaceholders() {
        assertEquals(List.of("v0:", "{ts}", ":", "{body}"), SignatureScheme.parts("v0:{ts}:{body}"));
        assertEquals(List.of("{id}", ".", "{ts}", ".", "{body}"), SignatureScheme.parts("{id}.{ts}.{body}"));
        assertEquals(List.of("{url}", "{body}"), SignatureScheme.parts("{url}{body}"));
    }

    @Test
    void bodyFieldsAreReadByStreamingAndNeverThrow() {
        byte[] body = ("{\"skip\":{\"id\":\"nested-not-top\",\"a\":[1,{\"id\":2}]},\"id\":\"evt_1\",\"n\":1767225600000,"
                + "\"payload\":{\"plainToken\":\"tok\"},\"id\":\"second\"}").getBytes(StandardCharsets.UTF_8);
        assertEquals("second", JsonFields.text(body, "id"),
                "top level only; of duplicate keys the last, as Jackson's ObjectMapper, JSON.parse and Python's json read it");
        assertEquals("1767225600000", JsonFields.text(body, "n"));
        assertEquals("tok", JsonFields.text(body, "payload", "plainToken"));
        assertNull(JsonFields.text(body, "skip"), "an object is not a text value");
        assertNull(JsonFields.text(body, "missing"));
        assertNull(JsonFields.text("[{\"id\":\"x\"}]".getBytes(StandardCharsets.UTF_8), "id"));
        assertNull(JsonFields.text("{\"id\":\"x\"".getBytes(StandardCharsets.UTF_8), "nope"), "truncated JSON");
        assertNull(JsonFields.text("{\"id\":\"x\",".getBytes(StandardCharsets.UTF_8), "id"),
                "the whole object is read (a later duplicate would win): a truncated one has no fields");
        assertNull(JsonFields.text("id=x&a=b".getBytes(StandardCharsets.UTF_8), "id"), "a form body");
        assertNull(JsonFields.text(new byte[] { (byte) 0xff, 0x00, 0x7b }, "id"));
        assertNull(JsonFields.text(new byte[0], "id"));
        assertNull(JsonFields.text("{\"id\":1.5}".getBytes(StandardCharsets.UTF_8), "id"), "not an integer");
        assertNull(JsonFields.text("{\"id\":\"a\",\"id\":{\"x\":1}}".getBytes(StandardCharsets.UTF_8), "id"),
                "the last value is an object: no text, whatever came before");
        assertEquals("b", JsonFields.text("{\"data\":{\"id\":\"a\"},\"data\":{\"id\":\"b\"}}"
                .getBytes(StandardCharsets.UTF_8), "data", "id"), "a nested path follows the last of each key");
        assertNull(JsonFields.text("{\"data\":{\"id\":\"a\"},\"data\":{\"other\":1}}"
                .getBytes(StandardCharsets.UTF_8), "data", "id"), "the last object under the key has no id: none");
    }

    /** A custom scheme with Stripe's knobs verifies Stripe's vectors exactly as the preset does. */
    @Test
    void aCustomSchemeWithAPresetsKnobsBehavesLikeThePreset() throws Exception {
        SignatureScheme custom = CustomSchemes.parse(JSON.readTree("{\"signatureHeader\":\"Stripe-Signature\","
                + "\"layout\":\"params\",\"separator\":\",\",\"signatureParam\":\"v1\",\"timestampSource\":\"param\","
                + "\"timestampParam\":\"t\",\"signedContent\":\"{ts}.{body}\",\"toleranceSeconds\":300,"
                + "\"dedupeField\":\"id\"}"));
        assertEquals(Providers.preset("stripe"), custom);
        SignatureVerifier verifier = Providers.verifier("custom", null, null, custom);
        for (Vector v : SignatureVectors.of("stripe")) {
            assertEquals(v.expected(), verifier.verify(v.headerLookup(), v.body(), v.secrets(), v.receivedAt()),
                    v.toString());
        }
    }

    @Test
    void standardWebhooksKnobsAsACustomSchemeEqualThePreset() throws Exception {
        SignatureScheme custom = CustomSchemes.parse(JSON.readTree("{\"signatureHeader\":[\"webhook-signature\","
                + "\"svix-signature\"],\"encoding\":\"base64\",\"prefix\":\"v1,\",\"layout\":\"list\",\"separator\":\" \","
                + "\"timestampSource\":\"header\",\"timestampHeader\":[\"webhook-timestamp\",\"svix-timestamp\"],"
                + "\"idHeader\":[\"webhook-id\",\"svix-id\"],\"signedContent\":\"{id}.{ts}.{body}\","
                + "\"secretEncoding\":\"whsec-base64\",\"dedupeHeader\":[\"webhook-id\",\"svix-id\"]}"));
        assertEquals(Providers.preset("standard-webhooks"), custom);
    }

    @Test
    void storedSchemesThatNoLongerParseVerifyNothing() {
        assertNull(CustomSchemes.parseStored("{\"signatureHeader\":\"X-S\",\"unknown\":1}"));
        assertNull(CustomSchemes.parseStored("not json"));
        assertNull(Providers.verifier("custom", null, null, null), "custom without a scheme: fail closed");
        assertNull(Providers.verifier("square"), "square without its URL: fail closed");
        assertNull(Providers.verifier("twilio"), "twilio without its URL: fail closed");
        assertNull(Providers.verifier("nope"));
        assertNull(Providers.verifier(null));
    }

    @Test
    void problemsNameTheFieldAndNeverTheSecret() {
        String problem = Providers.problem("standard-webhooks", null, null, null, List.of("whsec_AAAA", "hunter2!"));
        assertTrue(problem.contains("Secret #2") && !problem.contains("hunter2"), problem);
        assertNull(Providers.problem("standard-webhooks", null, 60, null, List.of("whsec_AAAA")));
        assertNull(Providers.problem("square", "https://x.example/hook", null, null, List.of("k")));
        assertTrue(Providers.problem("square", null, null, null, List.of("k")).contains("publicUrl"));
    }

    /** Common HMAC senders (issue 20): a comma list (PagerDuty) refuses empty items; a space list (Svix) pads. */
    @Test
    void onlyASpaceSeparatedListToleratesEmptyItems() {
        SignatureHeader comma = new SignatureHeader(SignatureScheme.builder("X-S").prefix("v1=").list(",").build());
        String sig = "v1=" + "ab".repeat(32);
        assertEquals(2, comma.parse(sig + "," + sig).values.size());
        assertNull(comma.parse(sig + ",," + sig), "repeated comma");
        assertNull(comma.parse(sig + ", "), "trailing comma");
        SignatureHeader space = new SignatureHeader(SignatureScheme.builder("X-S")
                .encoding(SignatureScheme.Encoding.BASE64).prefix("v1,").list(" ").build());
        String b64 = "v1," + Base64.getEncoder().encodeToString(new byte[32]);
        assertEquals(2, space.parse(b64 + "   " + b64 + " ").values.size());
    }

    /** Common HMAC senders (issue 20): Clerk and Resend are Standard Webhooks under their own names. */
    @Test
    void clerkAndResendAreTheStandardWebhooksScheme() {
        assertEquals(Providers.preset("standard-webhooks"), Providers.preset("clerk"));
        assertEquals(Providers.preset("standard-webhooks"), Providers.preset("resend"));
        assertTrue(Providers.problem("clerk", null, null, null, List.of("not base64!")).contains("Secret #1"));
        assertTrue(Providers.problem("hubspot", null, null, null, List.of("k")).contains("publicUrl"));
        assertTrue(Providers.problem("trello", null, null, null, List.of("k")).contains("publicUrl"));
    }

    /** Common HMAC senders (issue 20): Zendesk's ISO 8601 timestamp is read in exactly one shape. */
    @Test
    void isoTimestampsAreReadInExactlyOneShape() {
        assertEquals(1767225600L, SignatureText.parseIsoSeconds("2026-01-01T00:00:00Z"));
        assertEquals(1616648967L, SignatureText.parseIsoSeconds("2021-03-25T05:09:27Z"), "Zendesk's docs example");
        for (String bad : new String[] { null, "", "1767225600", "2026-01-01T00:00:00.000Z", "2026-01-01T01:00:00+01:00",
            "2026-01-01 00:00:00Z", "2026-01-01T00:00:00z", "2026-02-30T00:00:00Z", "2026-13-01T00:00:00Z",
            "1969-12-31T23:59:59Z", "\u0662026-01-01T00:00:00Z", "2026-01-01T24:00:00Z", " 2026-01-01T00:00:00Z" }) {
            assertEquals(-1L, SignatureText.parseIsoSeconds(bad), String.valueOf(bad));
        }
    }
}
