package io.webhookbuffer.ingress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class IngestServiceUnitTests {

    private static String sha256Hex(byte[] data) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(data));
    }

    @Test
    void withoutAProviderIdTheKeyIsTheBodysSha256() throws Exception {
        byte[] body = "{\"id\":1}".getBytes(StandardCharsets.UTF_8);
        String key = IngestService.dedupeKey(null, true, body);
        assertEquals(sha256Hex(body), key);
        assertEquals(64, key.length());
        assertEquals(key, IngestService.dedupeKey(null, true, body.clone()), "stable: a retry gets the same key");
        assertNotEquals(key, IngestService.dedupeKey(null, true, "{\"id\":2}".getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void theEmptyBodyHasThePublishedSha256() {
        assertEquals("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
                IngestService.dedupeKey(null, true, new byte[0]));
    }

    @Test
    void aShortProviderIdIsUsedUnchanged() {
        byte[] body = "x".getBytes(StandardCharsets.UTF_8);
        assertEquals("evt_123", IngestService.dedupeKey("evt_123", true, body));
        assertEquals("évt-ünïcode-日本", IngestService.dedupeKey("évt-ünïcode-日本", true, body));
        String exactly200 = "i".repeat(IngestService.MAX_EVENT_ID_LENGTH);
        assertEquals(200, exactly200.length());
        assertEquals(exactly200, IngestService.dedupeKey(exactly200, true, body));
    }

    @Test
    void aProviderIdLongerThan200CharsIsReplacedByItsSha256() throws Exception {
        byte[] body = "x".getBytes(StandardCharsets.UTF_8);
        String id201 = "i".repeat(201);
        assertEquals("sha256:" + sha256Hex(id201.getBytes(StandardCharsets.UTF_8)), IngestService.dedupeKey(id201, true, body));

        String unicode = "é".repeat(150) + "日".repeat(60);
        assertEquals("sha256:" + sha256Hex(unicode.getBytes(StandardCharsets.UTF_8)),
                IngestService.dedupeKey(unicode, true, body), "hashed over the id's UTF-8 bytes");

        String huge = "evt-".repeat(10_000);
        String key = IngestService.dedupeKey(huge, true, body);
        assertEquals("sha256:".length() + 64, key.length());
        assertTrue(key.length() <= IngestService.MAX_EVENT_ID_LENGTH, "the replacement fits the limit itself");
        assertNotEquals(key, IngestService.dedupeKey(huge + "x", true, body));
        assertNotEquals(IngestService.dedupeKey(id201, true, body), IngestService.dedupeKey(null, true, body),
                "a long id's key does not depend on the body and differs from the body hash");
    }

    @Test
    void anIdPostgresTextCannotHoldIsReplacedByTheSha256OfItsBytes() throws Exception {
        byte[] body = "x".getBytes(StandardCharsets.UTF_8);
        String nul = "evt_\u0000";
        assertEquals("sha256:" + sha256Hex(nul.getBytes(StandardCharsets.UTF_8)), IngestService.dedupeKey(nul, true, body));
        assertEquals(IngestService.dedupeKey(nul, true, body), IngestService.dedupeKey(new String(nul), true, "y".getBytes()),
                "stable, and independent of the body: a retry is a duplicate");
        assertNotEquals(IngestService.dedupeKey("evt_\uD800", true, body), IngestService.dedupeKey("evt_\uDC00", true, body),
                "two unpaired surrogates are two ids");
        assertNotEquals("evt_?", IngestService.dedupeKey("evt_\uD800", true, body));
        assertEquals("evt_?", IngestService.dedupeKey("evt_?", true, body));
        assertEquals("evt_\uD83D\uDE00", IngestService.dedupeKey("evt_\uD83D\uDE00", true, body), "a pair is valid text");
    }

    @Test
    void anUnsignedIdIsBoundToTheFirst128BitsOfTheBodysSha256() throws Exception {
        byte[] body = "{\"n\":1}".getBytes(StandardCharsets.UTF_8);
        assertEquals("evt_1:" + sha256Hex(body).substring(0, 32), IngestService.dedupeKey("evt_1", false, body));
        assertEquals(IngestService.dedupeKey("evt_1", false, body), IngestService.dedupeKey("evt_1", false, body.clone()),
                "a retry (same id, same body) gets the same key");
        assertNotEquals(IngestService.dedupeKey("evt_1", false, body),
                IngestService.dedupeKey("evt_1", false, "{\"n\":2}".getBytes(StandardCharsets.UTF_8)),
                "a captured body re-sent under the id cannot take the genuine event's key");
        assertNotEquals(IngestService.dedupeKey("evt_1", false, body), IngestService.dedupeKey("evt_1", true, body));
        String id201 = "i".repeat(201);
        assertEquals("sha256:" + sha256Hex(id201.getBytes(StandardCharsets.UTF_8)) + ":" + sha256Hex(body).substring(0, 32),
                IngestService.dedupeKey(id201, false, body), "a long id is hashed first, then bound");
        assertEquals(sha256Hex(body), IngestService.dedupeKey(null, false, body), "no id: the body hash, as before");
    }

    @ParameterizedTest
    @ValueSource(strings = { "x-signature", "x-hub-signature-256", "stripe-signature", "authorization",
            "proxy-authorization", "x-auth-token", "x-csrf-token", "x-webhook-secret", "x-hmac-sha256", "cookie", "set-cookie",
            "x-api-key" })
    void credentialHeadersAreRecognised(String name) {
        assertTrue(IngestService.carriesCredentials(name), name);
    }

    @ParameterizedTest
    @ValueSource(strings = { "content-type", "x-event-id", "user-agent", "x-request-id", "x-github-event",
            "x-github-delivery", "accept", "x-forwarded-for", "" })
    void ordinaryHeadersAreNotCredentials(String name) {
        assertFalse(IngestService.carriesCredentials(name), name);
    }
}
