package io.webhookbuffer.testsupport;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.regex.Pattern;

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

    /**
     * An unsigned id bound to a body whose provider's retry changes the top-level {@code field} (its send time, e.g.
     * Linear's {@code webhookTimestamp}): the binding hashes the body without that field's value and the separator
     * after it (docs/providers.md "Unsigned ids are bound to the body"). Written for the compact JSON of the tests:
     * {@code {"a":1,"ts":5,"b":2}} is hashed as {@code {"a":1,"ts":"b":2}}.
     */
    public static String boundWithout(String providerId, String body, String field) {
        return bound(providerId, body.replaceAll("(\"" + Pattern.quote(field) + "\":)(-?[0-9]+|\"[^\"]*\"),?", "$1"));
    }

    /** A request without a provider id: the SHA-256 of the body (hex). */
    public static String ofBody(byte[] body) {
        return HexFormat.of().formatHex(Hmac.sha256(body));
    }
}
