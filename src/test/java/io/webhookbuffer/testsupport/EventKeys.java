package io.webhookbuffer.testsupport;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

import io.webhookbuffer.common.Hmac;

/**
 * The dedupe key (the {@code eventId} answered and delivered) a test expects, written from docs/providers.md
 * rather than taken from the code under test.
 */
public final class EventKeys {

    private EventKeys() {
    }

    /** An id the provider's signature does not cover: bound to the body by the first 32 hex digits of its SHA-256. */
    public static String bound(String providerId, byte[] body) {
        return providerId + ":" + HexFormat.of().formatHex(Hmac.sha256(body)).substring(0, 32);
    }

    public static String bound(String providerId, String body) {
        return bound(providerId, body.getBytes(StandardCharsets.UTF_8));
    }

    /** A request without a provider id: the SHA-256 of the body (hex). */
    public static String ofBody(byte[] body) {
        return HexFormat.of().formatHex(Hmac.sha256(body));
    }
}
