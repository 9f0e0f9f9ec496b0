package io.webhookbuffer.bench;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Locale;
import java.util.function.BiConsumer;

import io.webhookbuffer.common.Hmac;

/**
 * How the load generator signs a request the way one provider scheme does. One implementation per scheme the
 * generator knows; {@link #forScheme} names them.
 */
interface RequestSigner {

    /** Adds the scheme's signature and event-id headers for {@code body} to {@code headers}. */
    void sign(String secret, String eventId, byte[] body, BiConsumer<String, String> headers);

    static RequestSigner forScheme(String scheme) {
        return switch (scheme.toLowerCase(Locale.ROOT)) {
            case "generic" -> RequestSigner::generic;
            default -> throw new IllegalArgumentException("unknown provider scheme " + scheme + " (known: generic)");
        };
    }

    /** Generic: {@code X-Signature} = lowercase hex HMAC-SHA256(secret, raw body); {@code X-Event-ID} = the id. */
    private static void generic(String secret, String eventId, byte[] body, BiConsumer<String, String> headers) {
        headers.accept("X-Event-ID", eventId);
        byte[] mac = Hmac.hmacSha256(secret.getBytes(StandardCharsets.UTF_8), body);
        headers.accept("X-Signature", HexFormat.of().formatHex(mac));
    }
}
