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

class WebhookResourceUnitTests {

    private static String sha256Hex(byte[] data) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(data));
    }

    @Test
    void withoutAProviderIdTheKeyIsTheBodysSha256() throws Exception {
        byte[] body = "{\"id\":1}".getBytes(StandardCharsets.UTF_8);
        String key = WebhookResource.dedupeKey(null, body);
        assertEquals(sha256Hex(body), key);
        assertEquals(64, key.length());
        assertEquals(key, WebhookResource.dedupeKey(null, body.clone()), "stable: a retry gets the same key");
        assertNotEquals(key, WebhookResource.dedupeKey(null, "{\"id\":2}".getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void theEmptyBodyHasThePublishedSha256() {
        assertEquals("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
                WebhookResource.dedupeKey(null, new byte[0]));
    }

    @Test
    void aShortProviderIdIsUsedUnchanged() {
        byte[] body = "x".getBytes(StandardCharsets.UTF_8);
        assertEquals("evt_123", WebhookResource.dedupeKey("evt_123", body));
        assertEquals("évt-ünïcode-日本", WebhookResource.dedupeKey("évt-ünïcode-日本", body));
        String exactly200 = "i".repeat(WebhookResource.MAX_EVENT_ID_LENGTH);
        assertEquals(200, exactly200.length());
        assertEquals(exactly200, WebhookResource.dedupeKey(exactly200, body));
    }

    @Test
    void aProviderIdLongerThan200CharsIsReplacedByItsSha256() throws Exception {
        byte[] body = "x".getBytes(StandardCharsets.UTF_8);
        String id201 = "i".repeat(201);
        assertEquals("sha256:" + sha256Hex(id201.getBytes(StandardCharsets.UTF_8)), WebhookResource.dedupeKey(id201, body));

        String unicode = "é".repeat(150) + "日".repeat(60);
        assertEquals("sha256:" + sha256Hex(unicode.getBytes(StandardCharsets.UTF_8)),
                WebhookResource.dedupeKey(unicode, body), "hashed over the id's UTF-8 bytes");

        String huge = "evt-".repeat(10_000);
        String key = WebhookResource.dedupeKey(huge, body);
        assertEquals("sha256:".length() + 64, key.length());
        assertTrue(key.length() <= WebhookResource.MAX_EVENT_ID_LENGTH, "the replacement fits the limit itself");
        assertNotEquals(key, WebhookResource.dedupeKey(huge + "x", body));
        assertNotEquals(WebhookResource.dedupeKey(id201, body), WebhookResource.dedupeKey(null, body),
                "a long id's key does not depend on the body and differs from the body hash");
    }

    @Test
    void anIdPostgresTextCannotHoldIsReplacedByTheSha256OfItsBytes() throws Exception {
        byte[] body = "x".getBytes(StandardCharsets.UTF_8);
        String nul = "evt_\u0000";
        assertEquals("sha256:" + sha256Hex(nul.getBytes(StandardCharsets.UTF_8)), WebhookResource.dedupeKey(nul, body));
        assertEquals(WebhookResource.dedupeKey(nul, body), WebhookResource.dedupeKey(new String(nul), "y".getBytes()),
                "stable, and independent of the body: a retry is a duplicate");
        assertNotEquals(WebhookResource.dedupeKey("evt_\uD800", body), WebhookResource.dedupeKey("evt_\uDC00", body),
                "two unpaired surrogates are two ids");
        assertNotEquals("evt_?", WebhookResource.dedupeKey("evt_\uD800", body));
        assertEquals("evt_?", WebhookResource.dedupeKey("evt_?", body));
        assertEquals("evt_\uD83D\uDE00", WebhookResource.dedupeKey("evt_\uD83D\uDE00", body), "a pair is valid text");
    }

    @ParameterizedTest
    @ValueSource(strings = { "x-signature", "x-hub-signature-256", "stripe-signature", "authorization",
            "proxy-authorization", "x-auth-token", "x-csrf-token", "x-webhook-secret", "x-hmac-sha256", "cookie", "set-cookie",
            "x-api-key" })
    void credentialHeadersAreRecognised(String name) {
        assertTrue(WebhookResource.carriesCredentials(name), name);
    }

    @ParameterizedTest
    @ValueSource(strings = { "content-type", "x-event-id", "user-agent", "x-request-id", "x-github-event",
            "x-github-delivery", "accept", "x-forwarded-for", "" })
    void ordinaryHeadersAreNotCredentials(String name) {
        assertFalse(WebhookResource.carriesCredentials(name), name);
    }
}
