package io.webhookbuffer.common;

import java.util.HexFormat;

/**
 * The form of an event id the signature does not cover, bound to its body: {@code <provider id>:<the first 32 hex
 * digits of sha256(body)>} (docs/providers.md "Unsigned ids are bound to the body"). The ingress builds it; an origin, the demo
 * origin among them, splits it to get the provider's id back.
 */
public final class EventIds {

    /** 128 bits of the body's SHA-256. */
    public static final int BINDING_HEX_DIGITS = 32;
    /** The longest provider id kept as sent. */
    public static final int MAX_LENGTH = 200;

    private EventIds() {
    }

    /**
     * A provider's id as the dedupe key holds it: as sent, or {@code sha256:<hex>} of it when it is longer than
     * {@link #MAX_LENGTH} characters or not storable as text (the ingress and the event finder agree on it).
     */
    public static String storable(String providerId) {
        return providerId.length() > MAX_LENGTH || !Utf8.storableAsText(providerId)
                // For a valid string these are its UTF-8 bytes: the keys of long ids stored before are unchanged.
                ? "sha256:" + HexFormat.of().formatHex(Hmac.sha256(Utf8.losslessBytes(providerId)))
                : providerId;
    }

    /** {@code id} bound to {@code body}. */
    public static String bind(String id, byte[] body) {
        return id + ':' + HexFormat.of().formatHex(Hmac.sha256(body)).substring(0, BINDING_HEX_DIGITS);
    }

    /** The provider's id in a delivered event id: what precedes a binding suffix, or the whole id when it has none. */
    public static String providerId(String eventId) {
        int colon = eventId.lastIndexOf(':');
        if (colon < 0 || eventId.length() - colon - 1 != BINDING_HEX_DIGITS) {
            return eventId;
        }
        for (int i = colon + 1; i < eventId.length(); i++) {
            char c = eventId.charAt(i);
            if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f')) {
                return eventId;
            }
        }
        return eventId.substring(0, colon);
    }
}
